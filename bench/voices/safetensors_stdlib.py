"""Reads a safetensors file into torch tensors without the safetensors package."""
import json, struct
import torch

DTYPES = {"F32": torch.float32, "F16": torch.float16, "I64": torch.int64}

def load_file(path):
    data = open(path, "rb").read()
    size = struct.unpack("<Q", data[:8])[0]
    header = json.loads(data[8:8 + size])
    body = data[8 + size:]
    out = {}
    for name, meta in header.items():
        if name == "__metadata__":
            continue
        start, end = meta["data_offsets"]
        flat = torch.frombuffer(bytearray(body[start:end]), dtype=DTYPES[meta["dtype"]])
        out[name] = flat.reshape(meta["shape"]).clone()
    return out
