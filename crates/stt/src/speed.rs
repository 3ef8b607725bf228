//! How long a model takes on this computer: it transcribes 11 s of built-in
//! speech (President Kennedy's "ask not …", 1961, public domain; the sample
//! whisper.cpp ships), so the app can say which model this computer can run
//! live. The text is returned too: a model that cannot hear "country" in it
//! is not working.

use std::io::Cursor;

use crate::transcriber::SttError;

/// 16 kHz mono 16-bit PCM.
const SAMPLE: &[u8] = include_bytes!("../assets/speech-sample.wav");
/// A word the sample's transcript holds when the model works.
pub const SAMPLE_WORD: &str = "country";

/// One model's time on the sample.
#[derive(Debug, Clone, PartialEq)]
pub struct Timing {
    /// Length of the speech transcribed.
    pub speech_ms: i64,
    /// Wall time of the transcription (the model already loaded and warm).
    pub took_ms: i64,
    /// What the model wrote.
    pub text: String,
}

impl Timing {
    /// Whether the model wrote the sample's word, i.e. it works.
    pub fn heard(&self) -> bool {
        self.text.to_lowercase().contains(SAMPLE_WORD)
    }
}

/// The sample as 16 kHz mono samples.
pub fn sample() -> Result<Vec<f32>, SttError> {
    let reader = hound::WavReader::new(Cursor::new(SAMPLE))
        .map_err(|e| SttError::Engine(format!("the built-in speech sample: {e}")))?;
    reader
        .into_samples::<i16>()
        .map(|s| s.map(|s| f32::from(s) / 32_768.0))
        .collect::<Result<_, _>>()
        .map_err(|e| SttError::Engine(format!("the built-in speech sample: {e}")))
}

/// Loads the model at `path` and times it on the sample with `threads`, the
/// window fitted as live lines have it. A first short call warms it up
/// (whisper.cpp allocates on its first call), so only transcription counts.
#[cfg(feature = "whisper")]
pub fn time_model(path: &std::path::Path, threads: usize) -> Result<Timing, SttError> {
    use crate::engine::{CallOptions, Device, EngineOptions, Transcriber, WhisperEngine};
    let samples = sample()?;
    let options = EngineOptions { threads, language: Some("en".into()), device: Device::Cpu };
    let mut engine = WhisperEngine::load(path, options)?;
    engine.set_call(CallOptions { fit_window: true, threads: Some(threads), ..Default::default() });
    engine.transcribe(&samples[..16_000])?;
    let began = std::time::Instant::now();
    let result = engine.transcribe(&samples)?;
    let took_ms = began.elapsed().as_millis() as i64;
    let text = result.segments.iter().map(|s| s.text.as_str()).collect::<Vec<_>>().join(" ");
    Ok(Timing { speech_ms: samples.len() as i64 / 16, took_ms, text })
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_sample_is_eleven_seconds_of_sixteen_kilohertz_audio() {
        let samples = super::sample().expect("sample");
        assert_eq!(samples.len(), 176_000);
        assert!(samples.iter().any(|s| s.abs() > 0.1), "speech, not silence");
    }

    #[cfg(feature = "whisper")]
    #[test]
    fn the_test_model_is_timed_on_the_sample_and_heard() {
        let model = recorder_test_support::speech::test_model();
        let timing = super::time_model(&model, 1).expect("timed");
        assert_eq!(timing.speech_ms, 11_000);
        assert!(timing.took_ms > 0, "{timing:?}");
        assert!(timing.heard(), "tiny.en hears the sample: {timing:?}");
        let missing = super::time_model(std::path::Path::new("/nonexistent/ggml-x.bin"), 1);
        assert!(missing.is_err(), "a model that cannot load is an error, not a time");
    }
}
