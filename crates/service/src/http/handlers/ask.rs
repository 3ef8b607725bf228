//! `POST /v1/ask`: a question answered from the meetings, with the lines the
//! answer comes from (`meaning/ask.rs`); whole, or streamed as NDJSON steps.

use axum::body::Body;
use axum::extract::State;
use axum::http::{header, HeaderMap, HeaderValue};
use axum::response::{IntoResponse, Response};
use axum::Json;
use recorder_api_types::{AskAnswer, AskRequest, ErrorBody};
use tokio_stream::wrappers::UnboundedReceiverStream;
use tokio_stream::StreamExt;

use crate::base::error::ApiResult;
use crate::http::extract::parse_json;
use crate::meaning::ask::{self, Step};
use crate::state::AppState;

const NDJSON: &str = "application/x-ndjson";

/// Ask the meetings a question. The answer comes from the notes provider the
/// person chose (given only the passages found), or, with the built-in
/// engine, is made of the lines that answer best; `citations` are the lines
/// it comes from. With `Accept: application/x-ndjson` the answer streams as
/// JSON lines: `{"type":"citations","citations":[…]}` (what the answer is
/// made from; sent again if the built-in engine takes over), `{"type":"delta","text":"…"}`
/// as the text is written, then `{"type":"done", …the reply below}` or
/// `{"type":"error","error":{code,message}}`. Errors of the request itself
/// (400, 404) come before the stream, as plain error replies.
#[utoipa::path(post, path = "/v1/ask", tag = "search",
    request_body = AskRequest,
    responses(
        (status = 200, body = AskAnswer, description = "The answer (or, with `Accept: application/x-ndjson`, its steps as JSON lines)"),
        (status = 400, body = ErrorBody, description = "invalid_request: an empty question, one over 2 000 characters, or `from` not before `to`"),
        (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
        (status = 404, body = ErrorBody, description = "no such meeting"),
        (status = 413, body = ErrorBody),
    ),
    security(("bearer" = [])))]
pub async fn ask(
    State(state): State<AppState>,
    headers: HeaderMap,
    body: axum::body::Bytes,
) -> ApiResult<Response> {
    let request: AskRequest = parse_json(&body)?;
    let streamed = headers
        .get(header::ACCEPT)
        .and_then(|accept| accept.to_str().ok())
        .is_some_and(|accept| accept.contains(NDJSON));
    let prepared = ask::prepare(&state, request).await?;
    if !streamed {
        let (steps, _ignored) = tokio::sync::mpsc::unbounded_channel();
        return Ok(Json(ask::answer(&state, prepared, &steps).await?).into_response());
    }
    let (steps, receiver) = tokio::sync::mpsc::unbounded_channel();
    tokio::spawn(async move {
        let last = match ask::answer(&state, prepared, &steps).await {
            Ok(answer) => Step::Done(answer),
            Err(error) => Step::Error {
                error: recorder_api_types::ErrorDetail {
                    code: error.code.as_str().to_string(),
                    message: error.message,
                },
            },
        };
        let _ = steps.send(last);
    });
    let lines = UnboundedReceiverStream::new(receiver).map(|step| {
        let mut line = serde_json::to_vec(&step).unwrap_or_default();
        line.push(b'\n');
        Ok::<_, std::convert::Infallible>(line)
    });
    let mut response = Body::from_stream(lines).into_response();
    response.headers_mut().insert(header::CONTENT_TYPE, HeaderValue::from_static(NDJSON));
    Ok(response)
}
