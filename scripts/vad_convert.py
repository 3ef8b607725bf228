"""Converts Silero VAD's 16 kHz ONNX model to the safetensors file recorder
reads (crates/stt/src/silero.rs): the same float32 tensors, renamed.

usage: python vad_convert.py silero_vad_16k_op15.onnx OUT.safetensors"""

import pathlib
import sys

import onnx
from onnx import numpy_helper
from safetensors.numpy import save_file

NAMES = {
    "model.stft.forward_basis_buffer": ("stft_conv.weight", (258, 1, 256)),
    "model.encoder.0.reparam_conv.weight": ("conv1.weight", (128, 129, 3)),
    "model.encoder.0.reparam_conv.bias": ("conv1.bias", (128,)),
    "model.encoder.1.reparam_conv.weight": ("conv2.weight", (64, 128, 3)),
    "model.encoder.1.reparam_conv.bias": ("conv2.bias", (64,)),
    "model.encoder.2.reparam_conv.weight": ("conv3.weight", (64, 64, 3)),
    "model.encoder.2.reparam_conv.bias": ("conv3.bias", (64,)),
    "model.encoder.3.reparam_conv.weight": ("conv4.weight", (128, 64, 3)),
    "model.encoder.3.reparam_conv.bias": ("conv4.bias", (128,)),
    "model.decoder.rnn.weight_ih": ("lstm_cell.weight_ih", (512, 128)),
    "model.decoder.rnn.weight_hh": ("lstm_cell.weight_hh", (512, 128)),
    "model.decoder.rnn.bias_ih": ("lstm_cell.bias_ih", (512,)),
    "model.decoder.rnn.bias_hh": ("lstm_cell.bias_hh", (512,)),
    "model.decoder.decoder.2.weight": ("final_conv.weight", (1, 128, 1)),
    "model.decoder.decoder.2.bias": ("final_conv.bias", (1,)),
}


def main():
    source, target = sys.argv[1], pathlib.Path(sys.argv[2])
    found = {i.name: numpy_helper.to_array(i) for i in onnx.load(source).graph.initializer}
    tensors = {}
    for onnx_name, (name, shape) in NAMES.items():
        if onnx_name not in found:
            sys.exit(f"vad_convert: {source} has no {onnx_name}: not Silero VAD v5/v6 16 kHz")
        array = found[onnx_name].astype("float32")
        if array.shape != shape:
            sys.exit(f"vad_convert: {onnx_name} is {array.shape}, expected {shape}")
        tensors[name] = array.copy()
    part = target.with_name(target.name + ".part")
    save_file(tensors, str(part), metadata={"source": pathlib.Path(source).name, "model": "silero-vad v6 16k"})
    part.rename(target)


if __name__ == "__main__":
    main()
