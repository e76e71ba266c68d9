"""Editing a saved dataset folder's data files in a test as a tool that rewrites them would:
each data file given the name of its new content's hash and the index updated, so that a
reading gets past the content check (:mod:`ragscore.io.content`) to the record rules."""
import hashlib
import json
import re
from pathlib import Path

_CONTENT_NAME = re.compile(r"[a-z]+\.[0-9a-f]{16}\.(jsonl|parquet)")


def rehash(folder):
    """Rename every content-named data file the index of ``folder`` lists to the hash of
    what it holds now, and update the index; return ``{kind: path}`` of the data files."""
    folder = Path(folder)
    index = json.loads((folder / "dataset.json").read_text(encoding="utf-8"))
    files = index.get("files") or {}
    for kind, name in files.items():
        path = folder / name
        if not _CONTENT_NAME.fullmatch(name) or not path.is_file() or path.is_symlink():
            continue
        digest = hashlib.sha256(path.read_bytes()).hexdigest()[:16]
        stem, _, suffix = name.split(".")
        files[kind] = f"{stem}.{digest}.{suffix}"
        path.rename(folder / files[kind])
    (folder / "dataset.json").write_text(json.dumps(index, indent=2, ensure_ascii=False) + "\n",
                                         encoding="utf-8")
    return {kind: folder / name for kind, name in files.items()}
