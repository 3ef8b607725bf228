//! The HTTP face of the service: the router, one handler file per resource,
//! the extractors and conversions to wire types, the text renderings of a
//! transcript and the app's embedded files.

pub mod assets;
pub mod convert;
pub mod extract;
pub mod handlers;
pub mod render;
pub mod router;
