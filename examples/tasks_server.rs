//! A server of the tasks extension (`io.modelcontextprotocol/tasks`, 2026-07-28) on the
//! toolkit: the conformance suite's `tasks-*` fixtures (see `tasks/fixtures.rs`), over
//! stdio or, with `--http ADDR`, Streamable HTTP (it prints `listening on http://ADDR` on
//! stderr when ready).
//!
//!     cargo run --features stdio,http --example tasks_server -- --http 127.0.0.1:8080

#[path = "tasks/fixtures.rs"]
mod fixtures;

use std::process::ExitCode;

use mcp_sansio::toolkit::server::{ServerBuilder, TaskStore};

const USAGE: &str = "usage: tasks_server [--http ADDR]";

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let mut http = None;
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--http" => match args.next() {
                Some(addr) => http = Some(addr),
                None => return usage(),
            },
            _ => return usage(),
        }
    }
    // `protocol_error_job` panics on purpose: that one is not reported; any other is.
    let report = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let on_purpose = info.payload().downcast_ref::<&str>().is_some_and(|s| s.starts_with("protocol_error_job"));
        if !on_purpose {
            report(info);
        }
    }));
    let builder = fixtures::add_task_fixtures(ServerBuilder::new("mcp-sansio-tasks", "1.0.0"), TaskStore::default());
    let result = match http {
        Some(addr) => serve_http(builder, &addr),
        None => builder.serve_stdio().map(drop),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("tasks_server: {e}");
            ExitCode::FAILURE
        }
    }
}

fn usage() -> ExitCode {
    eprintln!("{USAGE} (--http needs the http feature)");
    ExitCode::from(2)
}

#[cfg(feature = "http")]
fn serve_http(builder: ServerBuilder, addr: &str) -> std::io::Result<()> {
    use mcp_sansio::adapters::http::server::{HttpServer, ServerOptions};
    let server = builder.build();
    let config = server.config();
    let mut handler = server.handler(());
    let mut http: HttpServer<'_, _> = HttpServer::bind(addr, config, ServerOptions::default())?;
    eprintln!("listening on http://{}", http.local_addr());
    http.run(&mut handler)
}

#[cfg(not(feature = "http"))]
fn serve_http(_: ServerBuilder, _: &str) -> std::io::Result<()> {
    Err(std::io::Error::other("built without the http feature: --http is not available"))
}
