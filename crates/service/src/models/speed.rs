//! How fast this computer runs the transcription models, measured once
//! (`POST /ui/models/measure`: each installed model timed on 11 s of built-in
//! speech with the threads a live line gets, kept in `models/speed.json`),
//! and the model recommended from it: the largest one fast enough for live
//! lines. A model not installed is estimated from the largest measured one,
//! scaled by the models' sizes.

use std::path::{Path, PathBuf};

use recorder_api_types::{ModelSpeed, ModelSpeeds, RecommendationBasis, RecommendedModel};
use recorder_stt::catalogue::{self, Quantization};

use crate::base::clock::now_ms;
use crate::base::error::ApiError;
use crate::models::engine::configured_threads;
use crate::state::AppState;

/// A live line must take at most this share of the speech's length: both
/// channels, the partial lines (a second engine state) and the call itself
/// share the computer. On our 2-core bench machine base q8_0 runs files at
/// 0.058 and keeps live lines timely (bench/results/live-2026-11-24-*.md);
/// 0.15 leaves that margin, so a machine like it is recommended base.
const LIVE_REAL_TIME_FACTOR: f64 = 0.15;

/// Millions of parameters of each model family (OpenAI's model card), which
/// the compute per second of speech follows closely enough to rank them. It
/// errs on the slow side: on our bench machine base took 1.66× tiny.en's time
/// (bench/results/stt-2026-11-24.md), where the sizes say 1.90×.
const PARAMETERS_M: [(&str, f64); 6] = [
    ("tiny", 39.0),
    ("base", 74.0),
    ("small", 244.0),
    ("medium", 769.0),
    ("large-v3-turbo", 809.0),
    ("large", 1550.0),
];

fn parameters(model: &str) -> Option<f64> {
    let family = model.trim_end_matches(".en");
    PARAMETERS_M
        .iter()
        .find(|(name, _)| family == *name || (*name == "large" && family.starts_with("large-v")))
        .map(|(_, size)| *size)
}

fn speed_file(folder: &Path) -> PathBuf {
    folder.join("speed.json")
}

/// What was measured, if anything (a file that cannot be read counts as none).
pub fn stored(folder: &Path) -> Option<ModelSpeeds> {
    let text = std::fs::read_to_string(speed_file(folder)).ok()?;
    serde_json::from_str(&text).ok()
}

/// Times every installed model file in `models/`. Blocking: seconds for
/// small models, a minute for large ones. Refused while recording, when the
/// computer is busy with the call (the times would be wrong and the call
/// would suffer).
pub fn measure(state: &AppState) -> Result<ModelSpeeds, ApiError> {
    if state.work.recorder.current().is_some() {
        return Err(crate::recording::recorder::already_recording());
    }
    let folder = state.core.data_dir.models();
    // One measurement at a time (two would slow each other down): a second
    // request waits for the first and gets its result.
    static MEASURING: std::sync::Mutex<()> = std::sync::Mutex::new(());
    let _measuring = match MEASURING.try_lock() {
        Ok(guard) => guard,
        Err(_) => {
            let _done = MEASURING.lock().unwrap_or_else(|p| p.into_inner());
            return stored(&folder).ok_or_else(|| ApiError::internal("measuring", "no result"));
        }
    };
    let threads = state.models.engine.live_threads(configured_threads(&state.effective_settings()));
    let mut files: Vec<(String, PathBuf)> = super::installed_files(&folder)
        .into_keys()
        .filter_map(|file| Some((catalogue::file_id(&file)?.to_string(), folder.join(file))))
        .collect();
    files.sort();
    let results = files.into_iter().map(|(model, path)| time(&model, &path, threads)).collect();
    let speeds = ModelSpeeds { measured_at: now_ms(), threads, results };
    let text = serde_json::to_vec_pretty(&speeds).map_err(|e| ApiError::internal("speeds", e))?;
    let path = speed_file(&folder);
    let temporary = path.with_extension("json.part");
    std::fs::write(&temporary, text)
        .and_then(|()| std::fs::rename(&temporary, &path))
        .map_err(|e| ApiError::internal("saving the measured speeds", e))?;
    Ok(speeds)
}

fn time(model: &str, path: &Path, threads: usize) -> ModelSpeed {
    match recorder_stt::speed::time_model(path, threads) {
        Ok(timing) => {
            tracing::info!(model, took_ms = timing.took_ms, heard = timing.heard(), "model timed");
            ModelSpeed {
                model: model.to_string(),
                speech_ms: timing.speech_ms,
                took_ms: Some(timing.took_ms),
                heard: timing.heard(),
                error: None,
            }
        }
        Err(error) => ModelSpeed {
            model: model.to_string(),
            speech_ms: 0,
            took_ms: None,
            heard: false,
            error: Some(error.to_string()),
        },
    }
}

/// The largest catalogue model (English-only when `english`, else
/// multilingual) this computer runs live, by what `speeds` says; the default
/// model when nothing usable was measured.
pub fn recommend(
    speeds: Option<&ModelSpeeds>,
    english: bool,
    installed: &dyn Fn(&str) -> bool,
) -> RecommendedModel {
    let usable: Vec<(&str, f64)> =
        speeds.map(|s| s.results.iter().filter_map(real_time_factor).collect()).unwrap_or_default();
    let judged: Vec<(String, (f64, Option<String>))> = candidates(english)
        .into_iter()
        .filter_map(|model| judge(&model, &usable).map(|judged| (model, judged)))
        .collect();
    // The largest that keeps up; on a computer too slow for any, the fastest.
    let fits =
        |(_, (factor, _)): &&(String, (f64, Option<String>))| *factor <= LIVE_REAL_TIME_FACTOR;
    let pick = judged.iter().rfind(fits).or(judged.first()).cloned();
    let (model, factor, from) = match pick {
        Some((model, (factor, from))) => (model, Some(factor), from),
        None => (default_model(english), None, None),
    };
    let entry = catalogue::find(&model, Some(Quantization::Q8_0));
    let id = entry.map_or(model.clone(), |e| e.id().to_string());
    let basis = match (&factor, &from) {
        (None, _) => RecommendationBasis::Default,
        (Some(_), None) => RecommendationBasis::Measured,
        (Some(_), Some(_)) => RecommendationBasis::Estimated,
    };
    RecommendedModel {
        installed: installed(&id),
        model: id,
        size_bytes: entry.and_then(|e| e.size_bytes),
        basis,
        real_time_factor: factor.map(|f| (f * 1000.0).round() / 1000.0),
        estimated_from: from,
    }
}

/// Seconds per second of speech of a measured model that worked.
fn real_time_factor(speed: &ModelSpeed) -> Option<(&str, f64)> {
    let took = speed.took_ms.filter(|_| speed.heard && speed.speech_ms > 0)?;
    Some((speed.model.as_str(), took as f64 / speed.speech_ms as f64))
}

/// The model's factor: measured (any quantization of it; the fastest), else
/// scaled from the largest measured model no larger than it.
fn judge(model: &str, usable: &[(&str, f64)]) -> Option<(f64, Option<String>)> {
    let family_of = |id: &str| catalogue::split_name(id).0;
    let measured = usable
        .iter()
        .filter(|(id, _)| family_of(id) == model)
        .map(|(_, factor)| *factor)
        .min_by(f64::total_cmp);
    if let Some(factor) = measured {
        return Some((factor, None));
    }
    let size = parameters(model)?;
    let (from, factor) = usable
        .iter()
        .filter_map(|(id, factor)| Some((id, factor, parameters(&family_of(id))?)))
        .filter(|(_, _, measured_size)| *measured_size <= size)
        .max_by(|a, b| a.2.total_cmp(&b.2).then(b.1.total_cmp(a.1)))
        .map(|(id, factor, measured_size)| (id.to_string(), factor * size / measured_size))?;
    Some((factor, Some(from)))
}

/// Catalogue models of the language kind, smallest first.
fn candidates(english: bool) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    for entry in catalogue::entries() {
        // Large models have no English-only kind; v1 and v2 are outdone by v3.
        let large = matches!(entry.name, "large-v3" | "large-v3-turbo");
        let fits = (entry.english_only == english || (english && large))
            && (large || !entry.name.starts_with("large"));
        if fits && !names.iter().any(|n| n == entry.name) && parameters(entry.name).is_some() {
            names.push(entry.name.to_string());
        }
    }
    names.sort_by(|a, b| parameters(a).unwrap_or(0.0).total_cmp(&parameters(b).unwrap_or(0.0)));
    names
}

fn default_model(english: bool) -> String {
    if english { "base.en" } else { "base" }.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn speeds(results: &[(&str, Option<i64>, bool)]) -> ModelSpeeds {
        ModelSpeeds {
            measured_at: 0,
            threads: 2,
            results: results
                .iter()
                .map(|(model, took, heard)| ModelSpeed {
                    model: model.to_string(),
                    speech_ms: 11_000,
                    took_ms: *took,
                    heard: *heard,
                    error: None,
                })
                .collect(),
        }
    }

    #[test]
    fn nothing_measured_recommends_the_default() {
        let pick = recommend(None, true, &|_| false);
        assert_eq!(pick.model, "base.en-q8_0");
        assert_eq!(pick.basis, RecommendationBasis::Default);
        assert_eq!(pick.real_time_factor, None);
        assert_eq!(recommend(None, false, &|_| false).model, "base-q8_0");
    }

    #[test]
    fn a_fast_tiny_scales_to_the_largest_model_that_stays_live() {
        // tiny.en: 0.2 s for 11 s (factor 0.018); small (244/39 × that = 0.114)
        // fits under 0.15, medium (0.36) does not.
        let measured = speeds(&[("tiny.en-q8_0", Some(200), true)]);
        let pick = recommend(Some(&measured), true, &|_| false);
        assert_eq!(pick.model, "small.en-q8_0");
        assert_eq!(pick.basis, RecommendationBasis::Estimated);
        assert_eq!(pick.estimated_from.as_deref(), Some("tiny.en-q8_0"));
    }

    #[test]
    fn a_measured_model_wins_over_an_estimate_and_a_slow_one_is_not_picked() {
        let measured = speeds(&[
            ("tiny.en-q8_0", Some(300), true),
            ("base.en-q8_0", Some(900), true),
            ("small.en-q8_0", Some(4_000), true),
        ]);
        let pick = recommend(Some(&measured), true, &|id| id == "base.en-q8_0");
        assert_eq!(pick.model, "base.en-q8_0", "small.en measured 0.36: too slow live");
        assert_eq!(pick.basis, RecommendationBasis::Measured);
        assert!(pick.installed);
    }

    #[test]
    fn a_model_that_did_not_hear_the_sample_counts_for_nothing() {
        let measured = speeds(&[("tiny.en-q8_0", Some(100), false), ("base.en", None, false)]);
        assert_eq!(
            recommend(Some(&measured), true, &|_| false).basis,
            RecommendationBasis::Default
        );
    }

    #[test]
    fn a_slow_computer_is_recommended_tiny() {
        let measured = speeds(&[("tiny.en-q8_0", Some(1_500), true)]);
        let pick = recommend(Some(&measured), true, &|_| true);
        assert_eq!(pick.model, "tiny.en-q8_0");
        assert_eq!(pick.basis, RecommendationBasis::Measured);
        let slower = speeds(&[("tiny.en-q8_0", Some(5_000), true)]);
        let pick = recommend(Some(&slower), true, &|_| true);
        assert_eq!(pick.model, "tiny.en-q8_0", "too slow for any: the fastest");
        assert_eq!(pick.real_time_factor, Some(0.455));
    }

    #[test]
    fn multilingual_speech_gets_a_multilingual_model() {
        let measured = speeds(&[("tiny.en-q8_0", Some(200), true)]);
        assert_eq!(recommend(Some(&measured), false, &|_| false).model, "small-q8_0");
    }
}
