//! Property tests of the crash-safe WAV journal: whatever bytes a crash (or
//! anything else) leaves in a journal file, `repair` never panics, keeps
//! every whole sample that was there, and leaves a WAV that a reader opens
//! with exactly the samples it reported; a second repair changes nothing.

use proptest::prelude::*;
use recorder_capture::journal;

fn check_repair(bytes: &[u8]) -> Result<(), TestCaseError> {
    let folder = tempfile::tempdir().expect("temp");
    let path = folder.path().join("mic.wav");
    std::fs::write(&path, bytes).expect("write");
    let samples = journal::repair(&path).expect("repair never fails on a readable file");
    let repaired = std::fs::read(&path).expect("read");
    let body = bytes.len().saturating_sub(44) & !1;
    prop_assert_eq!(samples as usize, body / 2);
    if bytes.len() >= 44 {
        prop_assert_eq!(&repaired[44..], &bytes[44..44 + body], "the samples are kept");
    }
    let reader = hound::WavReader::open(&path).expect("a readable WAV");
    prop_assert_eq!(u64::from(reader.duration()), samples);
    prop_assert_eq!(journal::repair(&path).expect("again"), samples);
    prop_assert_eq!(
        std::fs::read(&path).expect("read"),
        repaired,
        "a second repair changes nothing"
    );
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn any_bytes_are_repaired_into_a_readable_wav(bytes in prop::collection::vec(any::<u8>(), 0..400)) {
        check_repair(&bytes)?;
    }

    #[test]
    fn a_journal_with_a_damaged_header_or_a_torn_end_is_repaired(
        samples in prop::collection::vec(any::<i16>().prop_map(|s| f32::from(s) / 32768.0), 0..600),
        damage in prop::collection::vec((0usize..44, any::<u8>()), 0..6),
        torn in 0usize..3,
    ) {
        let folder = tempfile::tempdir().expect("temp");
        let path = folder.path().join("sys.wav");
        let mut written = journal::Journal::create(&path).expect("create");
        written.append(&samples).expect("append");
        drop(written); // no finish: as a crash leaves it
        let mut bytes = std::fs::read(&path).expect("read");
        for (at, value) in damage {
            bytes[at] = value;
        }
        bytes.extend(std::iter::repeat_n(0x55u8, torn));
        check_repair(&bytes)?;
    }
}
