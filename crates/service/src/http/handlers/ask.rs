//! `POST /v1/ask`: a question answered from the meetings, with the lines the
//! answer comes from (`meaning/ask.rs`).

use axum::extract::State;
use axum::Json;
use recorder_api_types::{AskAnswer, AskRequest, ErrorBody};

use crate::base::error::ApiResult;
use crate::http::extract::parse_json;
use crate::state::AppState;

/// Ask the meetings a question. The answer comes from the notes provider the
/// person chose (given only the passages found), or, with the built-in
/// engine, is made of the lines that answer best; `citations` are the lines
/// it comes from. The answer is sent whole when ready (not streamed).
#[utoipa::path(post, path = "/v1/ask", tag = "search",
    request_body = AskRequest,
    responses(
        (status = 200, body = AskAnswer),
        (status = 400, body = ErrorBody, description = "invalid_request: an empty question, one over 2 000 characters, or `from` not before `to`"),
        (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
        (status = 404, body = ErrorBody, description = "no such meeting"),
        (status = 413, body = ErrorBody),
    ),
    security(("bearer" = [])))]
pub async fn ask(
    State(state): State<AppState>,
    body: axum::body::Bytes,
) -> ApiResult<Json<AskAnswer>> {
    let request: AskRequest = parse_json(&body)?;
    Ok(Json(crate::meaning::ask::ask(&state, request).await?))
}
