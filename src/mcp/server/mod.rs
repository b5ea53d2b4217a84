//! Server features: tools, resources, prompts, and the utilities a server offers
//! (completion, logging, pagination and caching, discovery).

pub mod completion;
pub mod discover;
pub mod logging;
pub mod pagination;
pub mod prompts;
pub mod resources;
pub mod tools;

pub use logging::LoggingLevel;
