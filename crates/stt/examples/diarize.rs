//! Prints the speaker turns of a 16 kHz mono WAV, one `start end speaker`
//! line each (seconds), then each speaker's voice (`voice K v1 … v192`), through the service's own path (the live VAD
//! profile, Silero when its weights are given, else the energy gate):
//! `diarize SPEAKER_MODEL WAV [SILERO_MODEL [SEGMENTATION_MODEL [local]]]`;
//! with the segmentation model, the windows' speakers guide its local speakers
//! in one pass over the audio ([`ChannelSpeakers`], what the service runs,
//! live or from the file), or with `local` pyannote
//! 3.1's recipe ([`recorder_stt::speaker::local`]) decides alone. Used by `bench/diarization.py` and
//! `bench/voices/run.py`.

use std::path::Path;
use std::time::Instant;

use recorder_stt::silero::SileroModel;
use recorder_stt::speaker::campplus::CamPlusPlus;
use recorder_stt::speaker::channel::ChannelSpeakers;
use recorder_stt::speaker::local::diarize_stream_local;
use recorder_stt::speaker::segmentation::Segmentation;
use recorder_stt::vad::Gate;

const USAGE: &str = "usage: diarize SPEAKER_MODEL WAV [SILERO_MODEL [SEGMENTATION_MODEL [local]]]";

fn main() -> Result<(), String> {
    let mut args = std::env::args().skip(1);
    let model = CamPlusPlus::load(Path::new(&args.next().ok_or(USAGE)?))?;
    let path = args.next().ok_or(USAGE)?;
    let silero = match args.next() {
        Some(vad) => Some(SileroModel::load(Path::new(&vad)).map_err(|e| e.to_string())?),
        None => None,
    };
    let segmentation = match args.next() {
        Some(seg) => Some(Segmentation::load(Path::new(&seg))?),
        None => None,
    };
    let alone = args.next().as_deref() == Some("local");
    let open = || recorder_stt::audio::open(Path::new(&path), None).map_err(|e| e.to_string());
    let began = Instant::now();
    let found = match &segmentation {
        Some(seg) if alone => {
            diarize_stream_local((seg, &model), open()?.as_mut(), None, &|| false)
                .map_err(|e| e.to_string())?
        }
        seg => {
            let mut channel =
                ChannelSpeakers::new(&model, seg.as_ref(), Gate::best(silero.as_ref()));
            channel.read_all(open()?.as_mut(), &|| false).map_err(|e| e.to_string())?;
            channel.conclude(None)
        }
    };
    eprintln!("{} speakers in {:.2} s", found.voices.len(), began.elapsed().as_secs_f64());
    for turn in found.turns {
        let seconds = |samples: usize| samples as f64 / 16_000.0;
        println!("{:.3} {:.3} {}", seconds(turn.start), seconds(turn.end), turn.speaker);
    }
    for (speaker, voice) in found.voices.iter().enumerate() {
        let values: Vec<String> = voice.iter().map(f32::to_string).collect();
        println!("voice {speaker} {}", values.join(" "));
    }
    Ok(())
}
