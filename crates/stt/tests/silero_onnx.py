"""Reference speech probabilities for crates/stt/tests/silero.rs: the
published Silero VAD ONNX model (from the same wheel as our weights) run by
onnxruntime exactly as silero_vad's own OnnxWrapper runs it: 512 new samples
per call after 64 samples of context, state carried between calls.

usage: python silero_onnx.py MODEL.onnx FILE.wav  (16 kHz mono 16-bit)"""

import sys
import wave

import numpy as np
import onnxruntime


def main():
    model, path = sys.argv[1], sys.argv[2]
    with wave.open(path) as audio:
        assert audio.getframerate() == 16000 and audio.getnchannels() == 1 and audio.getsampwidth() == 2
        samples = np.frombuffer(audio.readframes(audio.getnframes()), dtype="<i2").astype(np.float32) / 32768.0
    samples = np.pad(samples, (0, -len(samples) % 512))
    options = onnxruntime.SessionOptions()
    options.inter_op_num_threads = options.intra_op_num_threads = 1
    session = onnxruntime.InferenceSession(model, sess_options=options, providers=["CPUExecutionProvider"])
    state = np.zeros((2, 1, 128), dtype=np.float32)
    context = np.zeros(64, dtype=np.float32)
    rate = np.array(16000, dtype=np.int64)
    for start in range(0, len(samples), 512):
        frame = np.concatenate([context, samples[start:start + 512]])
        out, state = session.run(None, {"input": frame[None, :], "state": state, "sr": rate})
        context = frame[-64:]
        print(f"{float(out[0][0]):.6f}")


if __name__ == "__main__":
    main()
