//! The weather server of issue 13 on mcp-sansio's toolkit: a typed tool, a slow tool with
//! progress and cancellation, 25 resources served 10 per page, and a prompt. The same
//! server with rmcp and with the TypeScript SDK is beside it (see README.md there).
//!
//!     cargo run --features stdio,http --example weather [-- --http 127.0.0.1:8080]
use std::time::Duration;

use mcp_sansio::toolkit::Bounded;
use mcp_sansio::toolkit::server::{Cancelled, Job, ServerBuilder};

mcp_sansio::schema! {
    #[derive(serde::Deserialize)]
    struct Forecast {
        /// City name
        city: String,
        /// Days ahead
        days: Bounded<1, 7>,
    }

    #[derive(serde::Deserialize)]
    struct SlowSum {
        /// The numbers to add
        numbers: Vec<f64>,
        /// Pause before each addition, in milliseconds (default 200)
        delay_ms: Option<u64>,
    }

    #[derive(serde::Deserialize)]
    struct City {
        /// City name
        city: String,
    }
}

fn forecast(Forecast { city, days }: Forecast) -> String {
    (1..=days.get()).map(|d| format!("{city}, day {d}: sunny, {} °C", 18 + d)).collect::<Vec<_>>().join("\n")
}

fn slow_sum(job: Job, SlowSum { numbers, delay_ms }: SlowSum) -> Result<String, Cancelled> {
    let mut sum = 0.0;
    for (i, n) in numbers.iter().enumerate() {
        job.sleep(Duration::from_millis(delay_ms.unwrap_or(200)))?;
        sum += n;
        job.progress((i + 1) as f64, Some(numbers.len() as f64), Some(&format!("added {n}")));
    }
    Ok(format!("{sum}"))
}

fn main() -> std::io::Result<()> {
    let mut server = ServerBuilder::new("weather", "1.0.0")
        .page_size(10)
        .tool("get_forecast", "Weather forecast for a city", forecast)
        .blocking_tool("slow_sum", "Adds numbers slowly, reporting progress", slow_sum)
        .prompt("forecast_request", "Asks for a city's weather", |City { city }| {
            format!("What will the weather be like in {city} this week?")
        });
    for i in 1..=25 {
        let reading = format!("Station {i}: {} °C, wind {} m/s", 10 + i % 7, i % 5);
        server = server.resource(&format!("weather://stations/{i}"), &format!("station-{i}"), move || reading.clone());
    }
    match std::env::args().nth(2).filter(|_| std::env::args().nth(1).as_deref() == Some("--http")) {
        Some(addr) => server.serve_http(addr),
        None => server.serve_stdio().map(drop),
    }
}
