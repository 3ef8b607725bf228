//! Which notes provider writes a run's notes. The person's choice (`ai.provider`)
//! holds unless a managed key refuses it, the local server's name resolves to a
//! non-loopback address under ForceLocalModel, or a cloud key is missing; then
//! the built-in engine writes and the reason is logged. A refusal by policy is
//! also recorded in the Privacy Ledger as a blocked request.

use recorder_ai::{NotesRequest, ProviderConfig, ProviderKind};
use recorder_domain::{PolicyKey, PolicyValues};
use recorder_egress::Verdict;
use recorder_llm::worker::Launch;
use recorder_settings::Settings;
use url::Url;

use crate::state::{AppState, Core};

/// Who writes the notes of this run.
pub enum Writer {
    Builtin,
    /// The model inside (`ai.provider: "embedded"`).
    Embedded(Launch),
    Provider(ProviderConfig),
}

/// How to start the model inside, when the person chose it: Err says why it
/// cannot write (no model installed).
pub fn embedded(state: &AppState) -> Option<Result<Launch, String>> {
    if state.config.settings.typed().ai.provider != "embedded" {
        return None;
    }
    let Some(model) = crate::models::notes_models::active(&state.core, &state.config) else {
        return Some(Err("no notes model is installed: add one in Settings, AI, or with \
                         `recorder models add-notes FILE`"
            .into()));
    };
    if let Err(error) = recorder_llm::gguf::inspect(&model.path) {
        return Some(Err(format!("the notes model cannot be used: {error}")));
    }
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get() as u32);
    Some(Ok(Launch {
        program: recorder_llm::worker::find_program(),
        model: model.path,
        threads,
        context: None,
    }))
}

/// A provider the person chose, and why it cannot be used (if it cannot).
pub struct Choice {
    pub config: ProviderConfig,
    pub refusal: Option<Refusal>,
}

pub enum Refusal {
    /// By policy: recorded in the ledger as blocked.
    Policy(String),
    /// Not usable as configured (no key, bad URL): nothing is sent.
    Unusable(String),
}

/// The provider the person chose, with its key, judged against policy.
/// `None` when the choice is the built-in engine. Blocking (credential store).
pub fn choose(state: &AppState, runtime: &tokio::runtime::Handle) -> Option<Choice> {
    let own = state.config.settings.typed();
    let kind = match own.ai.provider.as_str() {
        "local" => ProviderKind::Local,
        "anthropic" => ProviderKind::Anthropic,
        "openai_compatible" => ProviderKind::OpenAiCompatible,
        _ => return None,
    };
    let policy = state.policy();
    let mut config = match config_for(state, kind, &own) {
        Ok(config) => config,
        Err(reason) => return Some(Choice { config: placeholder(kind), refusal: Some(reason) }),
    };
    let refusal = policy_refusal(&policy, &own)
        .map(Refusal::Policy)
        .or_else(|| pin_local(runtime, &policy, &mut config).err().map(Refusal::Policy))
        .or_else(|| missing_key(&config).map(Refusal::Unusable));
    Some(Choice { config, refusal })
}

/// Records a refused provider's first request as blocked in the ledger.
pub fn record_blocked(
    core: &Core,
    runtime: &tokio::runtime::Handle,
    config: &ProviderConfig,
    reason: &str,
    request: &NotesRequest<'_>,
) {
    let verdict = Verdict::Block(reason.to_owned());
    let _ = runtime.block_on(recorder_ai::generate(&core.egress, config, verdict, request));
}

fn config_for(
    state: &AppState,
    kind: ProviderKind,
    own: &Settings,
) -> Result<ProviderConfig, Refusal> {
    let base = match kind {
        ProviderKind::Local => own.ai.local_url.clone(),
        ProviderKind::Anthropic => {
            own.ai.cloud_base_url.clone().unwrap_or_else(|| "https://api.anthropic.com".into())
        }
        ProviderKind::OpenAiCompatible => {
            own.ai.cloud_base_url.clone().unwrap_or_else(|| "https://api.openai.com/v1".into())
        }
    };
    let base_url = Url::parse(&base)
        .map_err(|_| Refusal::Unusable(format!("the {} URL is not valid", kind.as_str())))?;
    let api_key = state.config.credentials.get(kind.as_str()).map_err(|error| {
        Refusal::Unusable(format!("the {} API key could not be read: {error}", kind.as_str()))
    })?;
    Ok(ProviderConfig {
        kind,
        base_url,
        model: own.ai.model.clone(),
        api_key,
        pinned_addrs: Vec::new(),
    })
}

fn placeholder(kind: ProviderKind) -> ProviderConfig {
    let base_url = Url::parse("http://127.0.0.1/").expect("a constant URL parses");
    ProviderConfig { kind, base_url, model: None, api_key: None, pinned_addrs: Vec::new() }
}

/// The managed key that refuses the chosen provider, as a message.
fn policy_refusal(policy: &PolicyValues, own: &Settings) -> Option<String> {
    let key = recorder_settings::provider_refusal(&own.ai.provider, &own.ai.local_url, policy)?;
    Some(format!("{} is refused by {} ({})", own.ai.provider, key.name(), policy.managed_by()))
}

/// Under ForceLocalModel a local server must resolve to loopback addresses
/// only; the request then goes to exactly those addresses (no DNS rebinding).
fn pin_local(
    runtime: &tokio::runtime::Handle,
    policy: &PolicyValues,
    config: &mut ProviderConfig,
) -> Result<(), String> {
    if config.kind != ProviderKind::Local || !policy.is_true(PolicyKey::ForceLocalModel) {
        return Ok(());
    }
    match runtime.block_on(recorder_ai::loopback_addrs(&config.base_url)) {
        Ok(addrs) => {
            config.pinned_addrs = addrs;
            Ok(())
        }
        Err(reason) => Err(format!(
            "the local model server is not on this machine ({reason}); ForceLocalModel ({})",
            policy.managed_by()
        )),
    }
}

fn missing_key(config: &ProviderConfig) -> Option<String> {
    let cloud = config.kind != ProviderKind::Local;
    (cloud && config.api_key.is_none())
        .then(|| format!("no API key is saved for {} (Settings, AI)", config.kind.as_str()))
}
