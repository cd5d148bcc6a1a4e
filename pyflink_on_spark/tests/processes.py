"""Processes as Linux's /proc shows them (no ps, ss or netstat needed), for tests: the process
table, a process's tree, and what a tree listens on (the security tests check that a job's
processes listen on the loopback only and attack every port they open; the cluster fixture
finds what a stopped cluster left)."""
from __future__ import annotations

import ipaddress
import os
import sys
from dataclasses import dataclass
from typing import Dict, List, Set

_LISTEN = "0A"                       # TCP_LISTEN in /proc/net/tcp's st column
_UNIX_ACCEPTING = 0x10000            # __SO_ACCEPTCON in /proc/net/unix's Flags


@dataclass(frozen=True)
class Listener:
    pid: int
    kind: str          # "tcp" or "unix"
    address: str       # an IP address, or the Unix socket's path ("" when unnamed)
    port: int = 0

    @property
    def loopback(self) -> bool:
        return self.kind == "unix" or ipaddress.ip_address(self.address).is_loopback


@dataclass(frozen=True)
class ProcessStat:
    pid: int
    state: str         # "R", "S", ... "Z" for a zombie (ended, not yet reaped)
    parent: int
    group: int


def process_table() -> List[ProcessStat]:
    """Every process of the machine (those that end while it is read are left out)."""
    table = []
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open("/proc/%s/stat" % name) as f:
                stat = f.read()
        except OSError:
            continue
        # the command name (in parentheses) may hold spaces: the fields follow its ')'
        fields = stat[stat.rindex(")") + 2:].split()
        table.append(ProcessStat(int(name), fields[0], int(fields[1]), int(fields[2])))
    return table


def process_tree(root: int) -> List[int]:
    """`root` and every process descended from it."""
    children: Dict[int, List[int]] = {}
    for process in process_table():
        children.setdefault(process.parent, []).append(process.pid)
    tree, todo = [], [root]
    while todo:
        pid = todo.pop()
        tree.append(pid)
        todo.extend(children.get(pid, ()))
    return tree


def _socket_inodes(pid: int) -> Set[str]:
    inodes = set()
    try:
        fds = os.listdir("/proc/%d/fd" % pid)
    except OSError:
        return inodes
    for fd in fds:
        try:
            target = os.readlink("/proc/%d/fd/%s" % (pid, fd))
        except OSError:
            continue
        if target.startswith("socket:["):
            inodes.add(target[len("socket:["):-1])
    return inodes


def _hex_address(text: str) -> str:
    """/proc/net/tcp's address (32-bit words in the machine's byte order) as an IP address;
    an IPv4 address a JVM's IPv6 socket listens on (::ffff:a.b.c.d) as IPv4."""
    raw = bytes.fromhex(text)
    if sys.byteorder == "little":
        raw = b"".join(raw[i:i + 4][::-1] for i in range(0, len(raw), 4))
    address = ipaddress.ip_address(raw)
    return str(getattr(address, "ipv4_mapped", None) or address)


def _tcp_listeners() -> Dict[str, tuple]:
    """inode -> (address, port) of every listening TCP socket of the machine."""
    found = {}
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            with open(table) as f:
                lines = f.read().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            fields = line.split()
            if fields[3] != _LISTEN:
                continue
            address, port = fields[1].split(":")
            found[fields[9]] = (_hex_address(address), int(port, 16))
    return found


def _unix_listeners() -> Dict[str, str]:
    found = {}
    with open("/proc/net/unix") as f:
        for line in f.read().splitlines()[1:]:
            fields = line.split()
            if int(fields[3], 16) & _UNIX_ACCEPTING:
                found[fields[6]] = fields[7] if len(fields) > 7 else ""
    return found


def listeners(root: int) -> List[Listener]:
    """Every socket a process of `root`'s tree listens on."""
    tcp, unix = _tcp_listeners(), _unix_listeners()
    found = []
    for pid in process_tree(root):
        for inode in _socket_inodes(pid):
            if inode in tcp:
                found.append(Listener(pid, "tcp", *tcp[inode]))
            elif inode in unix:
                found.append(Listener(pid, "unix", unix[inode]))
    return found
