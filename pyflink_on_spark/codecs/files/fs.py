"""The little file-system surface the file sink needs: local paths through os, other URIs
(s3://, gs://, hdfs://...) through pyarrow.fs, which ships with PySpark's Arrow support."""
from __future__ import annotations

import os
import shutil
from typing import BinaryIO, Tuple
from urllib.parse import urlparse


def is_local(uri: str) -> bool:
    scheme = urlparse(uri).scheme
    return scheme in ("", "file") or (len(scheme) == 1 and os.name == "nt")


def local_path(uri: str) -> str:
    if uri.startswith("file:"):
        return "/" + uri[5:].lstrip("/")
    return os.path.abspath(uri)


def join(base: str, *parts: str) -> str:
    base = base.rstrip("/")
    rest = "/".join(p.strip("/") for p in parts if p)
    return base + "/" + rest if rest else base


def _remote(uri: str) -> Tuple[object, str]:
    from pyarrow import fs as pafs
    return pafs.FileSystem.from_uri(uri)


def open_write(uri: str) -> BinaryIO:
    if is_local(uri):
        path = local_path(uri)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        return open(path, "wb")
    filesystem, path = _remote(uri)
    filesystem.create_dir(path.rsplit("/", 1)[0], recursive=True)
    return filesystem.open_output_stream(path)


def rename(source: str, target: str) -> None:
    if is_local(source):
        target_path = local_path(target)
        os.makedirs(os.path.dirname(target_path), exist_ok=True)
        os.replace(local_path(source), target_path)
        return
    filesystem, source_path = _remote(source)
    _, target_path = _remote(target)
    filesystem.create_dir(target_path.rsplit("/", 1)[0], recursive=True)
    filesystem.move(source_path, target_path)


def remove_tree(uri: str) -> None:
    if is_local(uri):
        shutil.rmtree(local_path(uri), ignore_errors=True)
        return
    filesystem, path = _remote(uri)
    try:
        filesystem.delete_dir(path)
    except (FileNotFoundError, OSError):
        pass


def list_names(uri: str):
    """Names of the entries directly in directory `uri` ([] when it does not exist)."""
    if is_local(uri):
        try:
            return sorted(os.listdir(local_path(uri)))
        except OSError:
            return []
    from pyarrow import fs as pafs
    filesystem, path = _remote(uri)
    infos = filesystem.get_file_info(pafs.FileSelector(path, allow_not_found=True))
    return sorted(i.base_name for i in infos)


def remove_file(uri: str) -> None:
    if is_local(uri):
        try:
            os.remove(local_path(uri))
        except OSError:
            pass
        return
    filesystem, path = _remote(uri)
    try:
        filesystem.delete_file(path)
    except (FileNotFoundError, OSError):
        pass


def exists(uri: str) -> bool:
    if is_local(uri):
        return os.path.exists(local_path(uri))
    from pyarrow import fs as pafs
    filesystem, path = _remote(uri)
    return filesystem.get_file_info(path).type != pafs.FileType.NotFound
