//! The weather server of issue 13 on rmcp 3.11, written the way its documentation shows:
//! `#[tool_router]` and `#[prompt_router]` for tools and the prompt, `ServerHandler`
//! methods for the paginated resources, tokio for the slow tool's sleeps and
//! cancellation.
use std::time::Duration;

use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::*;
use rmcp::service::RequestContext;
use rmcp::{ErrorData as McpError, RoleServer, ServerHandler, ServiceExt};
use rmcp::{prompt, prompt_handler, prompt_router, tool, tool_handler, tool_router};

const STATIONS: usize = 25;
const PAGE_SIZE: usize = 10;

struct Weather;

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Forecast {
    /// City name
    city: String,
    /// Days ahead
    #[schemars(range(min = 1, max = 7))]
    days: u8,
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct SlowSum {
    /// The numbers to add
    numbers: Vec<f64>,
    /// Pause before each addition, in milliseconds (default 200)
    delay_ms: Option<u64>,
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct City {
    /// City name
    city: String,
}

#[tool_router]
impl Weather {
    #[tool(description = "Weather forecast for a city")]
    fn get_forecast(&self, Parameters(Forecast { city, days }): Parameters<Forecast>) -> Result<String, String> {
        if !(1..=7).contains(&days) {
            return Err(format!("days must be from 1 to 7, not {days}"));
        }
        Ok((1..=days).map(|d| format!("{city}, day {d}: sunny, {} °C", 18 + d)).collect::<Vec<_>>().join("\n"))
    }

    #[tool(description = "Adds numbers slowly, reporting progress")]
    async fn slow_sum(
        &self,
        Parameters(SlowSum { numbers, delay_ms }): Parameters<SlowSum>,
        context: RequestContext<RoleServer>,
    ) -> Result<String, McpError> {
        let mut sum = 0.0;
        for (i, n) in numbers.iter().enumerate() {
            tokio::select! {
                _ = context.ct.cancelled() => return Err(McpError::internal_error("cancelled", None)),
                _ = tokio::time::sleep(Duration::from_millis(delay_ms.unwrap_or(200))) => {}
            }
            sum += n;
            if let Some(token) = context.meta.get_progress_token() {
                let progress = ProgressNotificationParam::new(token, (i + 1) as f64)
                    .with_total(numbers.len() as f64)
                    .with_message(format!("added {n}"));
                let _ = context.peer.notify_progress(progress).await;
            }
        }
        Ok(format!("{sum}"))
    }
}

#[prompt_router]
impl Weather {
    #[prompt(name = "forecast_request", description = "Asks for a city's weather")]
    async fn forecast_request(&self, Parameters(City { city }): Parameters<City>) -> Vec<PromptMessage> {
        let text = format!("What will the weather be like in {city} this week?");
        vec![PromptMessage::new_text(Role::User, text)]
    }
}

#[tool_handler]
#[prompt_handler]
impl ServerHandler for Weather {
    fn get_info(&self) -> ServerConfig {
        let capabilities = ServerCapabilities::builder().enable_tools().enable_prompts().enable_resources().build();
        ServerConfig::new(capabilities).with_server_info(Implementation::new("weather", "1.0.0"))
    }

    async fn list_resources(
        &self,
        request: Option<PaginatedRequestParams>,
        _: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, McpError> {
        let start = match request.and_then(|r| r.cursor) {
            Some(cursor) => cursor.parse().map_err(|_| McpError::invalid_params("invalid cursor", None))?,
            None => 0,
        };
        let end = (start + PAGE_SIZE).min(STATIONS);
        let resources = (start + 1..=end)
            .map(|i| Resource::new(format!("weather://stations/{i}"), format!("station-{i}")))
            .collect();
        let mut result = ListResourcesResult::with_all_items(resources);
        result.next_cursor = (end < STATIONS).then(|| end.to_string());
        Ok(result)
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, McpError> {
        let station = request.uri.strip_prefix("weather://stations/").and_then(|i| i.parse::<usize>().ok());
        match station.filter(|i| (1..=STATIONS).contains(i)) {
            Some(i) => {
                let reading = format!("Station {i}: {} °C, wind {} m/s", 10 + i % 7, i % 5);
                Ok(ReadResourceResult::new(vec![ResourceContents::text(reading, request.uri)]).into())
            }
            None => Err(McpError::resource_not_found("no such station", None)),
        }
    }
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    Weather.serve(rmcp::transport::stdio()).await?.waiting().await?;
    Ok(())
}
