//! Property tests of what reads files from outside: the audio decoder given
//! any bytes named `.wav` (a damaged or hostile import) and the CTranslate2
//! model reader given any `model.bin` never panic; they answer with an error
//! or with audio that reads to its end.

use proptest::prelude::*;
use recorder_stt::audio;
use recorder_stt::convert::{convert_ct2, OutputType};

/// A valid 16-bit WAV header for `data` bytes with the given format fields.
fn wav_header(channels: u16, rate: u32, bits: u16, data: u32) -> Vec<u8> {
    let block = channels.saturating_mul(bits / 8);
    let mut h = Vec::new();
    h.extend_from_slice(b"RIFF");
    h.extend_from_slice(&data.saturating_add(36).to_le_bytes());
    h.extend_from_slice(b"WAVEfmt ");
    h.extend_from_slice(&16u32.to_le_bytes());
    h.extend_from_slice(&1u16.to_le_bytes());
    h.extend_from_slice(&channels.to_le_bytes());
    h.extend_from_slice(&rate.to_le_bytes());
    h.extend_from_slice(&rate.saturating_mul(u32::from(block)).to_le_bytes());
    h.extend_from_slice(&block.to_le_bytes());
    h.extend_from_slice(&bits.to_le_bytes());
    h.extend_from_slice(b"data");
    h.extend_from_slice(&data.to_le_bytes());
    h
}

fn decode(bytes: &[u8]) -> Result<(), TestCaseError> {
    let folder = tempfile::tempdir().expect("temp");
    let path = folder.path().join("import.wav");
    std::fs::write(&path, bytes).expect("write");
    let Ok(mut stream) = audio::open(&path, None) else { return Ok(()) };
    // A stream that opened reads to its end, in bounded blocks.
    let mut total = 0usize;
    let mut block = Vec::new();
    for _ in 0..10_000 {
        block.clear();
        match stream.read(&mut block, 16_000) {
            Ok(0) | Err(_) => return Ok(()),
            Ok(read) => {
                prop_assert!(read <= 16_000 && block.len() == read);
                prop_assert!(block.iter().all(|s| s.is_finite()), "samples are numbers");
                total += read;
            }
        }
    }
    prop_assert!(false, "the stream never ended ({total} samples)");
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn any_bytes_named_wav_decode_or_fail_cleanly(bytes in prop::collection::vec(any::<u8>(), 0..600)) {
        decode(&bytes)?;
    }

    #[test]
    fn odd_wav_headers_decode_or_fail_cleanly(
        channels in prop_oneof![0u16..9, Just(64), Just(65), Just(u16::MAX)],
        rate in prop_oneof![Just(0u32), Just(1), Just(999), 8_000u32..96_000, Just(768_000), Just(768_001), Just(u32::MAX)],
        bits in prop_oneof![Just(0u16), Just(8), Just(16), Just(24), Just(32), Just(7)],
        claimed in prop_oneof![Just(0u32), 0u32..5_000, Just(u32::MAX)],
        body in prop::collection::vec(any::<u8>(), 0..3_000),
    ) {
        let mut bytes = wav_header(channels, rate, bits, claimed);
        bytes.extend(body);
        decode(&bytes)?;
    }

    #[test]
    fn any_model_bin_is_refused_cleanly(bytes in prop::collection::vec(any::<u8>(), 0..2_000)) {
        let folder = tempfile::tempdir().expect("temp");
        std::fs::write(folder.path().join("model.bin"), &bytes).expect("write");
        std::fs::write(folder.path().join("vocabulary.json"), "[\"a\"]").expect("write");
        let output = folder.path().join("out.bin");
        let converted = convert_ct2(&[folder.path().to_path_buf()], &output, OutputType::Q8_0);
        prop_assert!(converted.is_err(), "random bytes are not a Whisper model");
        prop_assert!(!output.exists(), "no output file");
        let partial = std::fs::read_dir(folder.path()).expect("list").filter_map(Result::ok)
            .filter(|e| e.file_name().to_string_lossy().contains("partial")).count();
        prop_assert_eq!(partial, 0, "nothing half-written is left");
    }
}
