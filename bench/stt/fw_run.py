"""One faster-whisper run, in a process of its own so that its peak RSS is
this configuration's alone. Prints one JSON line shaped like the output of our
`transcribe` example: {"audio_s", "wall_s", "rtf", "load_ms", "peak_rss_mib",
"text"}.

usage: fw_run.py MODEL_DIR FILE THREADS COMPUTE_TYPE greedy|default [vad]

  greedy   beam_size=1, best_of=1, condition_on_previous_text=False: what our
           engine does (whisper.cpp greedy, no_context)
  default  faster-whisper's own defaults (beam 5, previous text as prompt)
  vad      vad_filter=True (faster-whisper's Silero VAD); off otherwise

Both modes keep the temperature fallback, as whisper.cpp does by default.
"""

import json
import os
import resource
import sys
import time

# The model is a local folder; never reach for the hub.
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from faster_whisper import WhisperModel  # noqa: E402


def main() -> None:
    model_dir, path, threads, compute_type, mode = sys.argv[1:6]
    vad = len(sys.argv) > 6 and sys.argv[6] == "vad"
    threads = int(threads)

    started = time.perf_counter()
    model = WhisperModel(
        model_dir, device="cpu", compute_type=compute_type, cpu_threads=threads, num_workers=1
    )
    load_ms = (time.perf_counter() - started) * 1000

    options = {"language": "en", "vad_filter": vad}
    if mode == "greedy":
        options.update(beam_size=1, best_of=1, condition_on_previous_text=False)
    elif mode != "default":
        sys.exit(f"unknown mode {mode}")

    # The time covers decoding the file and iterating the segments: the
    # generator is lazy, the work happens while it is consumed.
    started = time.perf_counter()
    segments, info = model.transcribe(path, **options)
    text = []
    for segment in segments:
        print(f"[{segment.start:7.2f} → {segment.end:7.2f}] {segment.text.strip()}", file=sys.stderr)
        text.append(segment.text.strip())
    wall = time.perf_counter() - started

    # ru_maxrss is in KiB on Linux.
    peak_mib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(
        json.dumps(
            {
                "audio_s": round(info.duration, 1),
                "wall_s": round(wall, 2),
                "rtf": round(wall / info.duration, 4),
                "load_ms": round(load_ms),
                "peak_rss_mib": round(peak_mib, 1),
                "text": " ".join(text),
            }
        )
    )


if __name__ == "__main__":
    main()
