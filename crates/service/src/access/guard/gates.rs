//! Per-route gates after authentication: managed policy, then plan, then setting.
//! Each route declares its [`Requirement`]; the gate runs before the handler and
//! before the body is read.

use axum::extract::{Request, State};
use axum::middleware::Next;
use axum::response::Response;
use recorder_api_types::ErrorCode;
use recorder_domain::{Plan, PolicyKey};

use crate::access::guard::Principal;
use crate::base::error::ApiError;
use crate::state::AppState;

/// Which callers a gate applies to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Callers {
    Everyone,
    Agents,
}

/// What a route needs beyond authentication.
#[derive(Debug, Clone, Copy, Default)]
pub struct Requirement {
    /// Refused while DisableAgentRecording is true (for these callers).
    pub agent_recording_policy: Option<Callers>,
    /// Needs the Pro plan (for these callers).
    pub pro: Option<Callers>,
    /// Needs 'Allow remote start'.
    pub remote_start: bool,
}

impl Requirement {
    /// `POST /v1/recording/start`: policy, Pro, remote start.
    pub const START: Requirement = Requirement {
        agent_recording_policy: Some(Callers::Everyone),
        pro: Some(Callers::Everyone),
        remote_start: true,
    };
    /// `POST /v1/import`: policy and remote start; no plan.
    pub const IMPORT: Requirement = Requirement {
        agent_recording_policy: Some(Callers::Everyone),
        pro: None,
        remote_start: true,
    };
    /// `POST /v1/recording/prompt`: agents refused under policy.
    pub const PROMPT: Requirement = Requirement {
        agent_recording_policy: Some(Callers::Agents),
        pro: None,
        remote_start: false,
    };
    /// Stop and marker: Pro for agents.
    pub const PRO_FOR_AGENTS: Requirement = Requirement {
        agent_recording_policy: None,
        pro: Some(Callers::Agents),
        remote_start: false,
    };
    /// Notes regeneration: Pro for everyone.
    pub const PRO: Requirement = Requirement {
        agent_recording_policy: None,
        pro: Some(Callers::Everyone),
        remote_start: false,
    };
}

pub async fn enforce(
    State((state, requirement)): State<(AppState, Requirement)>,
    request: Request,
    next: Next,
) -> Result<Response, ApiError> {
    let principal =
        request.extensions().get::<Principal>().cloned().unwrap_or(Principal::Anonymous);
    check(&state, requirement, &principal)?;
    Ok(next.run(request).await)
}

fn applies(callers: Option<Callers>, principal: &Principal) -> bool {
    match callers {
        None => false,
        Some(Callers::Everyone) => true,
        Some(Callers::Agents) => principal.is_agent(),
    }
}

pub fn check(
    state: &AppState,
    requirement: Requirement,
    principal: &Principal,
) -> Result<(), ApiError> {
    let policy = state.policy();
    if applies(requirement.agent_recording_policy, principal)
        && policy.is_true(PolicyKey::DisableAgentRecording)
    {
        return Err(ApiError::policy(
            PolicyKey::DisableAgentRecording,
            "Starting recordings or importing audio through the API",
            &policy.managed_by(),
        ));
    }
    if applies(requirement.pro, principal) && state.plan() != Plan::Pro {
        return Err(ApiError::new(ErrorCode::ProRequired, "this operation needs the Pro plan"));
    }
    if requirement.remote_start && !state.effective_settings().general.allow_remote_start {
        return Err(ApiError::new(
            ErrorCode::RemoteStartDisabled,
            "'Allow remote start' is off (Settings, General)",
        ));
    }
    Ok(())
}
