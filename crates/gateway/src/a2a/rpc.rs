//! The JSON-RPC 2.0 envelope: reading a request body, and writing a result or an
//! error with the request's id echoed as given (a string, a number or null).
//! Errors use the standard codes plus A2A's own (-32001 to -32009).

use serde_json::{json, Map, Value};

/// A JSON-RPC error object.
#[derive(Debug, Clone, PartialEq)]
pub struct RpcError {
    pub code: i64,
    pub message: String,
}

impl RpcError {
    fn new(code: i64, message: impl Into<String>) -> RpcError {
        RpcError { code, message: message.into() }
    }

    /// -32700: the body is not JSON.
    pub fn parse_error(detail: &str) -> RpcError {
        RpcError::new(-32700, format!("Parse error: the body is not JSON ({detail})"))
    }

    /// -32600: JSON, but not a JSON-RPC 2.0 request.
    pub fn invalid_request(detail: &str) -> RpcError {
        RpcError::new(-32600, format!("Invalid Request: {detail}"))
    }

    /// -32601.
    pub fn method_not_found(method: &str) -> RpcError {
        RpcError::new(
            -32601,
            format!(
                "Method not found: `{method}`; this agent answers A2A 1.0 (SendMessage, \
                 SendStreamingMessage, GetTask, ListTasks, CancelTask, SubscribeToTask), v0.3 \
                 (message/send, message/stream, tasks/get, tasks/cancel, tasks/resubscribe) and \
                 the early protocol (tasks/send, tasks/sendSubscribe)"
            ),
        )
    }

    /// -32602: the message names the field at fault.
    pub fn invalid_params(detail: impl std::fmt::Display) -> RpcError {
        RpcError::new(-32602, format!("Invalid params: {detail}"))
    }

    /// -32603.
    pub fn internal(detail: &str) -> RpcError {
        RpcError::new(-32603, format!("Internal error: {detail}"))
    }

    /// -32001.
    pub fn task_not_found(id: &str) -> RpcError {
        RpcError::new(-32001, format!("Task not found: no task has the id `{id}`"))
    }

    /// -32002.
    pub fn not_cancelable(id: &str, state: &str) -> RpcError {
        RpcError::new(-32002, format!("Task cannot be canceled: task `{id}` is already {state}"))
    }

    /// -32003.
    pub fn push_not_supported() -> RpcError {
        RpcError::new(
            -32003,
            "Push Notification is not supported: use tasks/get or a streaming method instead",
        )
    }

    /// -32004.
    pub fn unsupported_operation(detail: impl std::fmt::Display) -> RpcError {
        RpcError::new(-32004, format!("This operation is not supported: {detail}"))
    }

    /// -32005.
    pub fn content_type_not_supported(content_type: &str) -> RpcError {
        RpcError::new(
            -32005,
            format!(
                "Content type not supported: the body is not JSON and was sent as \
                 `{content_type}`; send JSON-RPC as application/json"
            ),
        )
    }

    /// -32007.
    pub fn extended_card_not_configured() -> RpcError {
        RpcError::new(
            -32007,
            "Extended agent card is not configured: the public card at \
             /.well-known/agent-card.json is the whole card",
        )
    }

    /// -32009.
    pub fn version_not_supported(version: &str) -> RpcError {
        RpcError::new(
            -32009,
            format!("A2A version `{version}` is not supported: this agent speaks 1.0 and 0.3"),
        )
    }

    /// The A2A reason of an A2A error code, as 1.0's `google.rpc.ErrorInfo`
    /// names it.
    fn reason(&self) -> Option<&'static str> {
        Some(match self.code {
            -32001 => "TASK_NOT_FOUND",
            -32002 => "TASK_NOT_CANCELABLE",
            -32003 => "PUSH_NOTIFICATION_NOT_SUPPORTED",
            -32004 => "UNSUPPORTED_OPERATION",
            -32005 => "CONTENT_TYPE_NOT_SUPPORTED",
            -32007 => "EXTENDED_AGENT_CARD_NOT_CONFIGURED",
            -32009 => "VERSION_NOT_SUPPORTED",
            _ => return None,
        })
    }

    /// `{code, message, data?}`; an A2A error carries 1.0's `ErrorInfo` in `data`.
    pub fn to_json(&self) -> Value {
        let mut error = json!({ "code": self.code, "message": self.message });
        if let Some(reason) = self.reason() {
            error["data"] = json!([{
                "@type": "type.googleapis.com/google.rpc.ErrorInfo",
                "reason": reason,
                "domain": "a2a-protocol.org",
                "metadata": {},
            }]);
        }
        error
    }
}

/// A request that passed the envelope checks.
#[derive(Debug, Clone, PartialEq)]
pub struct Request {
    /// As sent: a string, a number or null (null also when absent).
    pub id: Value,
    pub method: String,
    /// `null` when absent.
    pub params: Value,
}

/// Reads a request body sent as `content_type`; on failure, the error
/// response to send back. Any body that is JSON is read, whatever its content
/// type says (`curl -d` says form data); a body that is not JSON is a parse
/// error, or -32005 when its content type said it was not JSON either.
pub fn parse(body: &[u8], content_type: Option<&str>) -> Result<Request, Value> {
    let value: Value = serde_json::from_slice(body).map_err(|error| {
        let error = match content_type.filter(|kind| !is_json(kind)) {
            Some(kind) => RpcError::content_type_not_supported(kind),
            None => RpcError::parse_error(&error.to_string()),
        };
        failure(&Value::Null, &error)
    })?;
    let Value::Object(object) = value else {
        let error = RpcError::invalid_request("the request must be a JSON object");
        return Err(failure(&Value::Null, &error));
    };
    let id = request_id(&object)?;
    if object.get("jsonrpc").and_then(Value::as_str) != Some("2.0") {
        return Err(failure(&id, &RpcError::invalid_request("`jsonrpc` must be \"2.0\"")));
    }
    let Some(method) = object.get("method").and_then(Value::as_str) else {
        return Err(failure(&id, &RpcError::invalid_request("`method` must be a string")));
    };
    let params = object.get("params").cloned().unwrap_or(Value::Null);
    Ok(Request { id, method: method.to_string(), params })
}

/// `application/json`, `application/a2a+json` and the like (parameters aside).
fn is_json(content_type: &str) -> bool {
    let essence = content_type.split(';').next().unwrap_or("").trim().to_ascii_lowercase();
    essence == "application/json"
        || (essence.starts_with("application/") && essence.ends_with("+json"))
}

fn request_id(object: &Map<String, Value>) -> Result<Value, Value> {
    match object.get("id") {
        None => Ok(Value::Null),
        Some(id @ (Value::String(_) | Value::Number(_) | Value::Null)) => Ok(id.clone()),
        Some(_) => {
            let error = RpcError::invalid_request("`id` must be a string, a number or null");
            Err(failure(&Value::Null, &error))
        }
    }
}

/// `{ jsonrpc, id, result }`.
pub fn success(id: &Value, result: Value) -> Value {
    json!({ "jsonrpc": "2.0", "id": id, "result": result })
}

/// `{ jsonrpc, id, error: { code, message } }`.
pub fn failure(id: &Value, error: &RpcError) -> Value {
    json!({ "jsonrpc": "2.0", "id": id, "error": error.to_json() })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn code(reply: &Value) -> i64 {
        reply["error"]["code"].as_i64().unwrap_or(0)
    }

    #[test]
    fn envelope_checks() {
        let json = Some("application/json");
        assert_eq!(code(&parse(b"{nope", json).expect_err("not JSON")), -32700);
        assert_eq!(code(&parse(b"{nope", None).expect_err("not JSON")), -32700);
        assert_eq!(code(&parse(b"{nope", Some("text/plain")).expect_err("text")), -32005);
        assert_eq!(code(&parse(b"", json).expect_err("empty")), -32700);
        assert_eq!(code(&parse(b"[1]", json).expect_err("an array")), -32600);
        let reply = parse(br#"{"id":"a","method":"tasks/get"}"#, json).expect_err("no jsonrpc");
        assert_eq!((code(&reply), reply["id"].clone()), (-32600, json!("a")));
        let reply =
            parse(br#"{"jsonrpc":"2.0","id":{"x":1},"method":"m"}"#, json).expect_err("object id");
        assert_eq!((code(&reply), reply["id"].clone()), (-32600, Value::Null));
        // JSON is read whatever the content type says (curl -d says form data).
        let form = Some("application/x-www-form-urlencoded");
        assert!(parse(br#"{"jsonrpc":"2.0","id":1,"method":"m"}"#, form).is_ok());
        assert!(parse(br#"{"jsonrpc":"2.0","id":1,"method":"m"}"#, Some("application/a2a+json"))
            .is_ok());
        let request =
            parse(br#"{"jsonrpc":"2.0","id":3,"method":"m","extra":1}"#, json).expect("a request");
        assert_eq!(request.id, json!(3));
        assert_eq!(request.params, Value::Null);
    }

    #[test]
    fn error_shapes() {
        let reply = failure(&json!(7), &RpcError::internal("boom"));
        assert_eq!(reply["jsonrpc"], "2.0");
        assert_eq!(reply["id"], 7);
        assert_eq!(reply["error"]["code"], -32603);
        assert!(reply["error"]["message"].as_str().is_some_and(|m| m.contains("boom")));
        let codes = [
            RpcError::method_not_found("x").code,
            RpcError::invalid_params("p").code,
            RpcError::task_not_found("t").code,
            RpcError::not_cancelable("t", "completed").code,
            RpcError::push_not_supported().code,
        ];
        assert_eq!(codes, [-32601, -32602, -32001, -32002, -32003]);
        assert_eq!(success(&Value::Null, json!(1)), json!({"jsonrpc":"2.0","id":null,"result":1}));
    }
}
