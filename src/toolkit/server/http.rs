//! Running a [`Server`] over HTTP (feature `http`): Streamable HTTP at `/mcp` and the
//! legacy HTTP+SSE transport at `/sse`, on the crate's
//! [`HttpServer`](crate::adapters::http::server::HttpServer), with the server as its
//! [`Handler`](crate::adapters::app::Handler) (see [`ServerHandler`](super::ServerHandler)).

use std::io;
use std::net::ToSocketAddrs;

use super::server::Server;
use super::step::Step;
use crate::adapters::http::server::{HttpServer, ServerOptions};

impl<'t, S, J: Step<S>, const N: usize> Server<'t, S, J, N> {
    /// Serves HTTP on `addr` with the adapter's default options until the process
    /// ends (or the listener fails). Every session gets this server's handlers; the
    /// work in progress of each is its own.
    pub fn serve_http(self, state: S, addr: impl ToSocketAddrs) -> io::Result<()> {
        self.serve_http_with(state, addr, ServerOptions::default())
    }

    /// The same, with the adapter's options (limits, paths, JSON responses, session
    /// keys).
    pub fn serve_http_with(self, state: S, addr: impl ToSocketAddrs, options: ServerOptions<'t>) -> io::Result<()> {
        let info = self.info_json();
        let config = self.config_with_info(&info);
        let mut handler = self.handler(state);
        let mut http: HttpServer<'_, _> = HttpServer::bind(addr, config, options)?;
        http.run(&mut handler)
    }
}

impl super::ServerBuilder<()> {
    /// Builds the server and serves HTTP on `addr` with it (see [`Server::serve_http`]).
    pub fn serve_http(self, addr: impl ToSocketAddrs) -> io::Result<()> {
        self.build().serve_http((), addr)
    }
}
