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

/// A valid WAV file: PCM 16-bit (`format` 1), 32-bit float (3) or
/// WAVE_FORMAT_EXTENSIBLE 24-bit PCM (0xFFFE), with a `LIST` chunk before the
/// data when asked, and `frames` frames of a ramp.
fn valid_wav(format: u16, channels: u16, rate: u32, frames: u32, list: bool) -> Vec<u8> {
    let bits: u16 = match format {
        1 => 16,
        3 => 32,
        _ => 24,
    };
    let block = channels * bits / 8;
    let mut fmt = Vec::new();
    fmt.extend(format.to_le_bytes());
    fmt.extend(channels.to_le_bytes());
    fmt.extend(rate.to_le_bytes());
    fmt.extend((rate * u32::from(block)).to_le_bytes());
    fmt.extend(block.to_le_bytes());
    fmt.extend(bits.to_le_bytes());
    if format == 0xfffe {
        fmt.extend(22u16.to_le_bytes());
        fmt.extend(bits.to_le_bytes());
        fmt.extend(0u32.to_le_bytes());
        // KSDATAFORMAT_SUBTYPE_PCM
        fmt.extend([1, 0, 0, 0, 0, 0, 0x10, 0, 0x80, 0, 0, 0xaa, 0, 0x38, 0x9b, 0x71]);
    }
    let mut data = Vec::new();
    for frame in 0..frames * u32::from(channels) {
        let value = ((frame % 200) as f32 / 100.0) - 1.0;
        match format {
            1 => data.extend(((value * 30_000.0) as i16).to_le_bytes()),
            3 => data.extend((value * 0.9).to_le_bytes()),
            _ => data.extend(&((value * 8_000_000.0) as i32).to_le_bytes()[..3]),
        }
    }
    let mut body = b"WAVE".to_vec();
    body.extend(b"fmt ");
    body.extend((fmt.len() as u32).to_le_bytes());
    body.extend(fmt);
    if list {
        body.extend(b"LIST");
        body.extend(10u32.to_le_bytes());
        body.extend(b"INFOISFT\x02\x00");
    }
    body.extend(b"data");
    body.extend((data.len() as u32).to_le_bytes());
    body.extend(data);
    let mut file = b"RIFF".to_vec();
    file.extend((body.len() as u32).to_le_bytes());
    file.extend(body);
    file
}

/// One way to damage a WAV file, aimed at its header (where the lengths are).
#[derive(Debug, Clone)]
enum WavDamage {
    /// Overwrite a header byte.
    Set(usize, u8),
    /// Write a huge or odd value over 4 (or 2) header bytes.
    Value(usize, u32, bool),
    /// Cut the file here.
    Cut(usize),
    /// A chunk of any name and claimed length, inserted at a header offset.
    Chunk(usize, [u8; 4], u32),
}

fn wav_damage() -> impl Strategy<Value = WavDamage> {
    let value = prop_oneof![
        Just(u32::MAX),
        Just(i32::MAX as u32),
        Just(0),
        Just(1),
        Just(0xfffe),
        Just(768_001),
        0u32..70_000,
    ];
    let name = prop_oneof![
        Just(*b"data"),
        Just(*b"fmt "),
        Just(*b"fact"),
        Just(*b"LIST"),
        any::<[u8; 4]>()
    ];
    prop_oneof![
        3 => (0usize..96, any::<u8>()).prop_map(|(at, byte)| WavDamage::Set(at, byte)),
        3 => (0usize..96, value.clone(), any::<bool>()).prop_map(|(at, v, wide)| WavDamage::Value(at, v, wide)),
        1 => any::<usize>().prop_map(WavDamage::Cut),
        1 => (0usize..96, name, value).prop_map(|(at, name, length)| WavDamage::Chunk(at, name, length)),
    ]
}

fn damaged(mut bytes: Vec<u8>, damage: &[WavDamage]) -> Vec<u8> {
    for damage in damage {
        match damage {
            WavDamage::Set(at, byte) => {
                if let Some(slot) = bytes.get_mut(*at) {
                    *slot = *byte;
                }
            }
            WavDamage::Value(at, value, wide) => {
                let width = if *wide { 4 } else { 2 };
                let end = (at + width).min(bytes.len());
                if *at < end {
                    bytes[*at..end].copy_from_slice(&value.to_le_bytes()[..end - at]);
                }
            }
            WavDamage::Cut(at) => bytes.truncate(at % (bytes.len() + 1)),
            WavDamage::Chunk(at, name, length) => {
                let at = (*at).min(bytes.len());
                let mut chunk = name.to_vec();
                chunk.extend(length.to_le_bytes());
                bytes.splice(at..at, chunk);
            }
        }
    }
    bytes
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// A valid WAV file with its header damaged: decodes to its end or fails
    /// cleanly (hound parses the header; our reader checks what it found).
    #[test]
    fn a_damaged_wav_decodes_or_fails_cleanly(
        format in prop_oneof![Just(1u16), Just(3), Just(0xfffe)],
        channels in 1u16..4,
        rate in prop_oneof![Just(16_000u32), Just(44_100), Just(48_000), Just(8_000)],
        frames in 0u32..600,
        list in any::<bool>(),
        damage in prop::collection::vec(wav_damage(), 1..5),
    ) {
        decode(&damaged(valid_wav(format, channels, rate, frames, list), &damage))?;
    }
}

#[test]
fn the_valid_wavs_decode() {
    for format in [1u16, 3, 0xfffe] {
        let folder = tempfile::tempdir().expect("temp");
        let path = folder.path().join("valid.wav");
        std::fs::write(&path, valid_wav(format, 2, 16_000, 1_600, true)).expect("write");
        let mut stream = audio::open(&path, None).expect("a valid WAV opens");
        assert_eq!(stream.duration_ms(), Some(100), "format {format}");
        let mut samples = Vec::new();
        while stream.read(&mut samples, 16_000).expect("reads") > 0 {}
        assert!((1_500..=1_700).contains(&samples.len()), "{} samples", samples.len());
    }
}

mod model_check {
    //! The whisper.cpp model check (`recorder_stt::model_check`) on the real
    //! test model (`scripts/test-model.sh`) and on copies of it with any field
    //! overwritten, with huge values spliced into its counts and lengths, or
    //! cut anywhere; and on any bytes. Copies are made by a reader that lays
    //! the changes over the model's bytes, so no case copies 43 MB.

    use std::io::{Cursor, Read, Seek, SeekFrom};
    use std::sync::OnceLock;
    use std::time::{Duration, Instant};

    use proptest::prelude::*;
    use recorder_stt::model_check::{inspect, inspect_reader, ModelError, ModelInfo};

    /// Bytes laid over the model's, each run at its offset.
    type Patches = Vec<(usize, Vec<u8>)>;

    /// The test model's bytes and where its fields are: (offset, width).
    struct Model {
        bytes: Vec<u8>,
        fields: Vec<(usize, usize)>,
    }

    fn model() -> &'static Model {
        static MODEL: OnceLock<Model> = OnceLock::new();
        MODEL.get_or_init(|| {
            let bytes = std::fs::read(recorder_test_support::speech::test_model()).expect("model");
            let fields = fields(&bytes);
            Model { bytes, fields }
        })
    }

    /// Every field of a valid file, found by walking it (a second reading of
    /// the layout, independent of the check's).
    fn fields(bytes: &[u8]) -> Vec<(usize, usize)> {
        let i32_at = |at: usize| i32::from_le_bytes(bytes[at..at + 4].try_into().expect("4"));
        let mut fields: Vec<(usize, usize)> = (0..14).map(|i| (i * 4, 4)).collect();
        let (mels, fft) = (i32_at(48) as usize, i32_at(52) as usize);
        let mut at = 56 + mels * fft * 4;
        fields.push((at, 4));
        let tokens = i32_at(at) as usize;
        at += 4;
        for _ in 0..tokens {
            fields.push((at, 4));
            at += 4 + i32_at(at) as usize;
        }
        while at < bytes.len() {
            let (dims, name, kind) = (i32_at(at) as usize, i32_at(at + 4) as usize, i32_at(at + 8));
            fields.extend((0..3 + dims).map(|i| (at + 4 * i, 4)));
            let shape: Vec<usize> = (0..dims).map(|i| i32_at(at + 12 + 4 * i) as usize).collect();
            at += 12 + 4 * dims;
            fields.push((at, name));
            at += name;
            let elements: usize = shape.iter().product();
            at += match kind {
                0 => elements * 4,
                1 => elements * 2,
                8 => elements / 32 * 34,
                other => panic!("the test model has a tensor of type {other}"),
            };
        }
        assert_eq!(at, bytes.len(), "the walk ends at the end");
        fields
    }

    /// The model's bytes up to `length`, with `patches` laid over them; notes
    /// the largest read asked of it.
    struct Patched<'a> {
        base: &'a [u8],
        length: usize,
        patches: Patches,
        position: usize,
        largest_read: usize,
    }

    impl Read for Patched<'_> {
        fn read(&mut self, buffer: &mut [u8]) -> std::io::Result<usize> {
            self.largest_read = self.largest_read.max(buffer.len());
            let end = self.length.min(self.position + buffer.len());
            let count = end.saturating_sub(self.position);
            buffer[..count].copy_from_slice(&self.base[self.position..end]);
            for (at, bytes) in &self.patches {
                for (i, byte) in bytes.iter().enumerate() {
                    if (self.position..end).contains(&(at + i)) {
                        buffer[at + i - self.position] = *byte;
                    }
                }
            }
            self.position += count;
            Ok(count)
        }
    }

    impl Seek for Patched<'_> {
        fn seek(&mut self, to: SeekFrom) -> std::io::Result<u64> {
            let position = match to {
                SeekFrom::Start(at) => at as i64,
                SeekFrom::Current(by) => self.position as i64 + by,
                SeekFrom::End(by) => self.length as i64 + by,
            };
            self.position = usize::try_from(position).map_err(std::io::Error::other)?;
            Ok(self.position as u64)
        }
    }

    /// Checks a patched copy cut to `length`: the answer's shape, reads, time.
    fn check(
        patches: Patches,
        length: usize,
    ) -> Result<Result<ModelInfo, ModelError>, TestCaseError> {
        let base = &model().bytes;
        let mut reader =
            Patched { base, length: length.min(base.len()), patches, position: 0, largest_read: 0 };
        let started = Instant::now();
        let result = inspect_reader(&mut reader, length.min(base.len()) as u64, "model.bin");
        prop_assert!(started.elapsed() < Duration::from_secs(5), "took {:?}", started.elapsed());
        // The check reads through a 64 KiB buffer and holds nothing larger.
        prop_assert!(reader.largest_read <= 1 << 16, "a read of {} bytes", reader.largest_read);
        if let Err(error) = &result {
            let shown = error.to_string();
            prop_assert!(shown.starts_with("model.bin "), "{shown}");
        }
        Ok(result)
    }

    fn huge() -> impl Strategy<Value = i64> {
        prop_oneof![
            Just(i64::from(i32::MAX)),
            Just(i64::from(i32::MIN)),
            Just(-1),
            Just(0),
            Just(5),
            Just(i64::from(u32::MAX)),
            Just(1 << 24),
            Just(51_864),
            0i64..2_000,
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        #[test]
        fn a_field_of_any_value_is_read_or_refused(
            field in any::<prop::sample::Index>(),
            value in huge(),
            second in any::<prop::sample::Index>(),
            byte in any::<u8>(),
        ) {
            let fields = &model().fields;
            let (at, width) = fields[field.index(fields.len())];
            let value = (value as u32).to_le_bytes()[..width.min(4)].to_vec();
            let (other, other_width) = fields[second.index(fields.len())];
            let patches = vec![(at, value), (other + other_width / 2, vec![byte])];
            let _answer = check(patches, usize::MAX)?;
        }

        #[test]
        fn a_cut_copy_is_refused(length in any::<usize>(), field in any::<prop::sample::Index>()) {
            let fields = &model().fields;
            // A cut anywhere, and one right inside a field.
            let (at, width) = fields[field.index(fields.len())];
            for length in [length % model().bytes.len(), at + width / 2] {
                let refused = check(Vec::new(), length)?;
                prop_assert!(refused.is_err(), "{length} bytes of {} pass", model().bytes.len());
            }
        }

        #[test]
        fn any_bytes_are_refused(bytes in prop::collection::vec(any::<u8>(), 0..3_000), ggml in any::<bool>()) {
            let mut file = if ggml { 0x6767_6d6cu32.to_le_bytes().to_vec() } else { Vec::new() };
            file.extend(bytes);
            let started = Instant::now();
            let refused = inspect_reader(Cursor::new(&file), file.len() as u64, "model.bin");
            prop_assert!(refused.is_err());
            prop_assert!(started.elapsed() < Duration::from_secs(1));
        }
    }

    #[test]
    fn the_test_models_pass() {
        let info = inspect(&recorder_test_support::speech::test_model()).expect("tiny.en q8_0");
        assert_eq!((info.n_vocab, info.multilingual, info.weight_type), (51_864, false, "q8_0"));
        assert_eq!((info.n_audio_state, info.n_audio_layer, info.tensors), (384, 4, 167));
        let folder = recorder_test_support::speech::test_models_dir();
        let f16 = inspect(&folder.join("ggml-tiny.en.bin")).expect("tiny.en f16");
        assert_eq!(f16.weight_type, "f16");
        // The multilingual base model (scripts/multilingual-model.sh, run by setup.sh).
        let base = inspect(&folder.join("ggml-base-q8_0.bin")).expect("base q8_0");
        assert_eq!((base.n_vocab, base.multilingual, base.tensors), (51_865, true, 245));
    }

    /// What each kind of damage reads as.
    #[test]
    fn damage_is_refused_with_what_is_wrong() {
        let model = model();
        let length = model.bytes.len();
        let refused = |patches: Patches, cut: usize| -> String {
            match check(patches, cut) {
                Ok(Err(error)) => error.to_string(),
                other => panic!("not refused: {other:?}"),
            }
        };
        let le = |value: i32| value.to_le_bytes().to_vec();
        let cases: Vec<(Patches, usize, &str)> = vec![
            (vec![(0, b"GGUF".to_vec())], length, "it is a GGUF file"),
            (vec![(0, b"RIFF".to_vec())], length, "does not start with the ggml magic"),
            (vec![(4, le(50_000))], length, "vocabulary of 50000 tokens"),
            (vec![(12, le(0))], length, "n_audio_state is 0"),
            (vec![(16, le(5))], length, "n_audio_head is 5"),
            (vec![(20, le(i32::MAX))], length, "n_audio_layer is 2147483647"),
            (vec![(28, le(512))], length, "they must match"),
            (vec![(44, le(4))], length, "ftype 4 is not one ggml knows"),
            (vec![(44, le(-1))], length, "ftype -1"),
            (vec![(52, le(i32::MAX))], length, "mel filters are 80 × 2147483647"),
            (vec![(64_376, le(-1))], length, "vocabulary claims -1 tokens"),
            (vec![(64_380, le(-1))], length, "a token claims 4294967295 bytes"),
            (Vec::new(), length - 1, "is truncated"),
            (Vec::new(), length / 2, "is truncated"),
        ];
        for (patches, cut, expected) in cases {
            let shown = refused(patches, cut);
            assert!(shown.contains(expected), "{shown} (expected {expected})");
        }
        // The first tensor's header (encoder.positional_embedding, f32 384 × 1500):
        // dimensions, name, type, shape.
        let tokens = i32::from_le_bytes(model.bytes[64_376..64_380].try_into().expect("4"));
        let (header, _) = model.fields[15 + tokens as usize];
        let shown = refused(Vec::new(), header);
        assert!(shown.contains("holds no tensors"), "{shown}");
        for (offset, value, expected) in [
            (0, 5, "a tensor has 5 dimensions"),
            (0, 0, "a tensor has 0 dimensions"),
            (4, -1, "name claims -1 bytes"),
            (4, i32::MAX, "name claims 2147483647 bytes"),
            (8, 99, "unknown type 99"),
            (8, 8, "of type q8_0; f32 was expected"),
            (12, 0, "a dimension of 0"),
            (12, 385, "this model's shape makes it"),
        ] {
            let shown = refused(vec![(header + offset, le(value))], length);
            assert!(shown.contains(expected), "{shown} (expected {expected})");
        }
        // One tensor twice (so another is missing): whisper.cpp counted the
        // tensors it read, so it would have left one of them unset.
        let (name, _) = *model
            .fields
            .iter()
            .find(|(at, width)| &model.bytes[*at..*at + width] == b"encoder.blocks.1.mlp_ln.weight")
            .expect("the name");
        let shown = refused(vec![(name + 15, b"0".to_vec())], length);
        assert!(shown.contains("encoder.blocks.0.mlp_ln.weight appears twice"), "{shown}");
        // Bytes after the last tensor, which whisper.cpp would read as another.
        let mut longer = model.bytes.clone();
        longer.extend([0u8; 20]);
        let shown = inspect_reader(Cursor::new(&longer), longer.len() as u64, "model.bin")
            .expect_err("trailing bytes");
        assert!(shown.to_string().contains("20 bytes follow its last tensor"), "{shown}");
    }
}

/// Regression (found by `a_damaged_wav_decodes_or_fails_cleanly`): the float
/// samples of a damaged file were passed on as they were, NaN and infinities
/// included, to the resampler and the transcriber.
#[test]
fn float_samples_that_are_not_numbers_are_silence() {
    let mut bytes = valid_wav(3, 2, 16_000, 800, false);
    let data = bytes.len() - 800 * 2 * 4;
    for (at, value) in [(0, f32::NAN), (1, f32::INFINITY), (2, f32::MAX), (3, -f32::MAX)] {
        let at = data + at * 4;
        bytes[at..at + 4].copy_from_slice(&value.to_le_bytes());
    }
    decode(&bytes).expect("every sample a number");
}
