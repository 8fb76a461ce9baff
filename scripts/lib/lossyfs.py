"""lossyfs: a FUSE pass-through file system where unmounting is a power cut.

  python3 lossyfs.py BACKING STASH MOUNT [--report FILE] [--writeback-seconds W]

Mounts BACKING at MOUNT (in the foreground) and serves every operation from BACKING at once, so
the mounted tree reads like any file system. Alongside it keeps an undo log of everything that
is not yet durable. When MOUNT is unmounted, that is the power cut: every change that was not
made durable is undone in BACKING, then the process prints a JSON report (and writes it to
FILE) and exits. Mounting BACKING again starts from what "survived".

What is durable (the strict POSIX model, harsher than ext4 or XFS in practice):
- File data and size: only after fsync or fdatasync of that file (or a write through a
  descriptor opened O_SYNC or O_DSYNC). Until then the bytes written since the last sync, and
  any truncation, are undone at the cut: the file goes back to its size and bytes at its last
  sync (or when the layer first saw it).
- Names: a create, mkdir, link, symlink, unlink, rmdir or rename is durable only after fsync of
  the directory that holds the name (both directories for a rename across directories). An
  fsync of a file does not make its new name durable. Until then the change is undone at the
  cut: a created file disappears (whatever its data), an unlinked file reappears, a rename goes
  back. Unlinked and replaced files are kept under STASH (same file system as BACKING) until
  the unlink is durable.
- Mode, owner and times are passed through and treated as durable at once (not modelled).
- --writeback-seconds W models the kernel's background writeback (Linux's dirty_expire): a
  file whose first unsynced change is W seconds old becomes durable as a whole, and so does a
  name change W seconds old, checked every WRITEBACK_PERIOD_SECONDS. Without it nothing is
  ever written back: only fsync makes data durable. --power-off-file PATH stops the writeback
  once PATH exists: the moment of the cut, when the unmount comes later (after kill -9 of the
  program under test, say).
- --ignore-dir-fsync (an experiment, not a model of a good disk): a directory fsync makes no
  name durable, so only names that existed at the mount survive a cut.

- --torn-seed N: a cut keeps a random prefix (0 to all bytes, seeded by N) of what each file
  had past its durable size, as a writeback cut short would: a log may end mid-record. Bytes
  overwritten within the durable size still go back to their durable values.

Not modelled: unsynced pages that reach the disk out of order (a hole before a kept tail),
reordering between fsynced files, fallocate (not offered: callers see ENOSYS), extended
attributes.
The undo log's saved pre-images (bytes overwritten within a file's durable size) are bounded by
SAVED_BYTES_MAX; a write past it fails with EIO and is counted in the report.
"""
import argparse
import errno
import json
import os
import random
import shutil
import stat
import sys
import threading
import time
from dataclasses import dataclass, field

from fusepy import FUSE, FuseOSError, Operations

BLOCK_BYTES = 4096
SAVED_BYTES_MAX = 256 * 1024 * 1024
WRITEBACK_PERIOD_SECONDS = 0.5
# Flags the layer handles itself: the caller's sync request (recorded, not passed on: the backing
# directory's own durability is not under test) and append (the kernel computes the offset).
SYNC_FLAGS = os.O_SYNC | os.O_DSYNC
STRIPPED_FLAGS = SYNC_FLAGS | os.O_APPEND | os.O_CREAT | os.O_EXCL | os.O_TRUNC


@dataclass
class DataUndo:
    """One inode's unsynced changes: its durable size and the durable bytes it overwrote."""
    durable_size: int
    size: int
    dirtied_when: float
    saved: dict = field(default_factory=dict)  # block index -> durable bytes of that block


@dataclass
class NameUndo:
    """One name change not yet durable. Directories are named by inode, which renames keep."""
    kind: str  # "create", "remove" or "rename"
    dir_ino: int
    name: str
    pending: set  # directory inodes whose fsync is still needed
    when: float
    from_dir_ino: int = 0  # rename only
    from_name: str = ""
    stash: str = ""  # remove: where the entry went; rename: the entry it replaced, if any


class LossyFs(Operations):
    use_ns = True

    def __init__(self, backing, stash, writeback_seconds, ignore_dir_fsync=False, torn_seed=None,
                 power_off_file=None):
        self.root = os.path.realpath(backing)
        self.stash_dir = os.path.realpath(stash)
        self.writeback_seconds = writeback_seconds
        self.ignore_dir_fsync = ignore_dir_fsync
        self.power_off_file = power_off_file
        self.torn = None if torn_seed is None else random.Random(torn_seed)
        self.mutex = threading.RLock()
        self.data = {}  # inode -> DataUndo
        self.names = []  # NameUndo, oldest first
        self.sync_fds = set()
        self.saved_bytes = 0
        self.stash_next = 0
        self.stats = {"writes": 0, "fsyncs": 0, "dir_fsyncs": 0, "writebacks": 0,
                      "names_committed": 0, "errors": 0}
        self.stop = threading.Event()

    # --- helpers ---------------------------------------------------------------------------
    def real(self, path):
        assert path.startswith("/"), path
        return os.path.join(self.root, path.lstrip("/"))

    def parent_ino(self, path):
        return os.lstat(os.path.dirname(self.real(path)) or self.root).st_ino

    def new_stash_path(self):
        self.stash_next += 1
        return os.path.join(self.stash_dir, f"stash-{self.stash_next:08d}")

    def record_name(self, kind, path, stash="", from_path=None):
        parent = self.parent_ino(path)
        undo = NameUndo(kind, parent, os.path.basename(path), {parent}, time.monotonic(), stash=stash)
        if from_path is not None:
            undo.from_dir_ino = self.parent_ino(from_path)
            undo.from_name = os.path.basename(from_path)
            undo.pending.add(undo.from_dir_ino)
        self.names.append(undo)

    def data_undo(self, fd):
        st = os.fstat(fd)
        undo = self.data.get(st.st_ino)
        if undo is None:
            undo = DataUndo(st.st_size, st.st_size, time.monotonic())
            self.data[st.st_ino] = undo
        return undo

    def save_durable_bytes(self, fd, undo, start, end):
        """Saves the durable bytes of [start, end) that are not saved yet, block by block."""
        end = min(end, undo.durable_size)
        if start >= end:
            return
        with open(f"/proc/self/fd/{fd}", "rb", buffering=0) as reader:
            for block in range(start // BLOCK_BYTES, (end - 1) // BLOCK_BYTES + 1):
                if block in undo.saved:
                    continue
                offset = block * BLOCK_BYTES
                length = min(BLOCK_BYTES, undo.durable_size - offset)
                if self.saved_bytes + length > SAVED_BYTES_MAX:
                    self.stats["errors"] += 1
                    print(f"lossyfs: undo log full ({SAVED_BYTES_MAX} bytes of pre-images)", file=sys.stderr)
                    raise FuseOSError(errno.EIO)
                original = os.pread(reader.fileno(), length, offset)
                assert len(original) == length, (len(original), length)
                undo.saved[block] = original
                self.saved_bytes += length

    def make_data_durable(self, ino):
        undo = self.data.pop(ino, None)
        if undo is not None:
            self.saved_bytes -= sum(len(b) for b in undo.saved.values())

    def commit_names(self, committed):
        for undo in committed:
            self.stats["names_committed"] += 1
            if undo.stash:
                self.drop_stashed(undo.stash)

    def drop_stashed(self, path):
        st = os.lstat(path)
        if stat.S_ISDIR(st.st_mode):
            shutil.rmtree(path)
        else:
            os.unlink(path)
            if st.st_nlink == 1:
                self.make_data_durable(st.st_ino)

    def writeback_loop(self):
        while not self.stop.wait(WRITEBACK_PERIOD_SECONDS):
            with self.mutex:
                if self.power_off_file and os.path.exists(self.power_off_file):
                    return  # the power is off: the kernel writes nothing back any more
                self.writeback(time.monotonic() - self.writeback_seconds)

    def writeback(self, older_than):
        for ino in [i for i, u in self.data.items() if u.dirtied_when <= older_than]:
            self.make_data_durable(ino)
            self.stats["writebacks"] += 1
        old = [u for u in self.names if u.when <= older_than]
        self.names = [u for u in self.names if u.when > older_than]
        self.commit_names(old)

    # --- FUSE operations --------------------------------------------------------------------
    def __call__(self, op, *args):
        with self.mutex:
            try:
                return super().__call__(op, *args)
            except OSError:
                raise
            except Exception as e:  # a bug in the layer: count it, so the test fails
                self.stats["errors"] += 1
                print(f"lossyfs: {op}{args!r}: {type(e).__name__}: {e}", file=sys.stderr)
                raise FuseOSError(errno.EIO)

    def init(self, path):
        if self.writeback_seconds is not None:
            threading.Thread(target=self.writeback_loop, daemon=True).start()

    def access(self, path, amode):
        if not os.access(self.real(path), amode):
            raise FuseOSError(errno.EACCES)

    def getattr(self, path, fh=None):
        st = os.fstat(fh.fh) if fh is not None else os.lstat(self.real(path))
        keys = ("st_mode", "st_ino", "st_nlink", "st_uid", "st_gid", "st_size", "st_atime_ns",
                "st_mtime_ns", "st_ctime_ns", "st_blocks")
        attrs = {k: getattr(st, k) for k in keys}
        for k in ("st_atime", "st_mtime", "st_ctime"):
            attrs[k] = attrs.pop(k + "_ns")
        return attrs

    def readdir(self, path, fh):
        return [".", ".."] + os.listdir(self.real(path))

    def readlink(self, path):
        return os.readlink(self.real(path))

    def statfs(self, path):
        sv = os.statvfs(self.real(path))
        return {k: getattr(sv, k) for k in ("f_bavail", "f_bfree", "f_blocks", "f_bsize", "f_favail",
                                            "f_ffree", "f_files", "f_flag", "f_frsize", "f_namemax")}

    def chmod(self, path, mode):
        os.chmod(self.real(path), mode)

    def chown(self, path, uid, gid):
        unset = 0xFFFFFFFF
        os.chown(self.real(path), -1 if uid == unset else uid, -1 if gid == unset else gid,
                 follow_symlinks=False)

    def utimens(self, path, times=None):
        if times is None:
            os.utime(self.real(path), follow_symlinks=False)
        else:
            os.utime(self.real(path), ns=times, follow_symlinks=False)

    def mkdir(self, path, mode):
        os.mkdir(self.real(path), mode)
        self.record_name("create", path)

    def symlink(self, target, source):
        os.symlink(source, self.real(target))
        self.record_name("create", target)

    def link(self, target, source):
        os.link(self.real(source), self.real(target))
        self.record_name("create", target)

    def mknod(self, path, mode, dev):
        os.mknod(self.real(path), mode, dev)
        self.record_name("create", path)

    def unlink(self, path):
        self.remove(path)

    def rmdir(self, path):
        if os.listdir(self.real(path)):
            raise FuseOSError(errno.ENOTEMPTY)
        self.remove(path)

    def remove(self, path):
        stash = self.new_stash_path()
        os.rename(self.real(path), stash)
        self.record_name("remove", path, stash=stash)

    def rename(self, old, new):
        src, dst = self.real(old), self.real(new)
        src_st = os.lstat(src)
        try:
            dst_st = os.lstat(dst)
        except FileNotFoundError:
            dst_st = None
        stash = ""
        if dst_st is not None:
            if dst_st.st_ino == src_st.st_ino:
                return  # two names of one file: rename(2) does nothing
            if stat.S_ISDIR(src_st.st_mode) and not stat.S_ISDIR(dst_st.st_mode):
                raise FuseOSError(errno.ENOTDIR)
            if not stat.S_ISDIR(src_st.st_mode) and stat.S_ISDIR(dst_st.st_mode):
                raise FuseOSError(errno.EISDIR)
            if stat.S_ISDIR(dst_st.st_mode) and os.listdir(dst):
                raise FuseOSError(errno.ENOTEMPTY)
            stash = self.new_stash_path()
            os.rename(dst, stash)
        try:
            os.rename(src, dst)
        except OSError:
            if stash:
                os.rename(stash, dst)
            raise
        self.record_name("rename", new, stash=stash, from_path=old)

    def open(self, path, fi):
        fd = os.open(self.real(path), self.backing_flags(fi.flags))
        self.opened(fd, fi)
        return 0

    def create(self, path, mode, fi):
        real = self.real(path)
        flags = self.backing_flags(fi.flags)
        try:
            fd = os.open(real, flags | os.O_CREAT | os.O_EXCL, mode)
            self.record_name("create", path)
        except FileExistsError:
            if fi.flags & os.O_EXCL:
                raise
            fd = os.open(real, flags)
        self.opened(fd, fi)
        return 0

    @staticmethod
    def backing_flags(flags):
        # Write-only opens read too: a write saves the durable bytes it overwrites.
        if flags & os.O_ACCMODE == os.O_WRONLY:
            flags = (flags & ~os.O_ACCMODE) | os.O_RDWR
        return flags & ~STRIPPED_FLAGS

    def opened(self, fd, fi):
        fi.fh = fd
        if fi.flags & SYNC_FLAGS:
            self.sync_fds.add(fd)
        if fi.flags & os.O_TRUNC:
            self.resize(fd, 0)

    def read(self, path, size, offset, fi):
        return os.pread(fi.fh, size, offset)

    def write(self, path, data, offset, fi):
        undo = self.data_undo(fi.fh)
        self.save_durable_bytes(fi.fh, undo, offset, offset + len(data))
        written = os.pwrite(fi.fh, data, offset)
        undo.size = max(undo.size, offset + written)
        self.stats["writes"] += 1
        if fi.fh in self.sync_fds:
            self.make_data_durable(os.fstat(fi.fh).st_ino)
        return written

    def truncate(self, path, length, fh=None):
        if fh is not None:
            self.resize(fh.fh, length)
            return
        fd = os.open(self.real(path), os.O_RDWR)
        try:
            self.resize(fd, length)
        finally:
            os.close(fd)

    def resize(self, fd, length):
        undo = self.data_undo(fd)
        self.save_durable_bytes(fd, undo, length, undo.durable_size)
        os.ftruncate(fd, length)
        undo.size = length

    def fsync(self, path, datasync, fi):
        self.stats["fsyncs"] += 1
        self.make_data_durable(os.fstat(fi.fh).st_ino)

    def fsyncdir(self, path, datasync, fh):
        self.stats["dir_fsyncs"] += 1
        if self.ignore_dir_fsync:
            return
        ino = os.lstat(self.real(path)).st_ino
        committed = []
        for undo in self.names:
            undo.pending.discard(ino)
            if not undo.pending:
                committed.append(undo)
        self.names = [u for u in self.names if u.pending]
        self.commit_names(committed)

    def flush(self, path, fi):
        return 0

    def release(self, path, fi):
        fd = fi.fh
        st = os.fstat(fd)
        if st.st_nlink == 0:  # gone for good: nothing of it can come back
            self.make_data_durable(st.st_ino)
        self.sync_fds.discard(fd)
        os.close(fd)
        return 0

    # --- the power cut ----------------------------------------------------------------------
    def power_cut(self):
        """Undoes every change that is not durable. Runs after the unmount, alone."""
        self.stop.set()
        report = dict(self.stats)
        report.update(files_rolled_back=0, bytes_dropped=0, names_undone=[], torn=[])
        paths = self.inode_paths()
        for ino, undo in self.data.items():
            path = paths.get(ino)
            if path is not None:
                kept = self.torn_tail(undo)
                if kept:
                    report["torn"].append(f"{os.path.basename(path)}: kept {kept} of "
                                          f"{undo.size - undo.durable_size} unsynced bytes")
                report["bytes_dropped"] += self.roll_back_data(path, undo, kept)
                report["files_rolled_back"] += 1
        for undo in reversed(self.names):
            self.undo_name(undo)
            report["names_undone"].append(f"{undo.kind} {undo.name}")
        for leftover in os.listdir(self.stash_dir):
            self.drop_stashed(os.path.join(self.stash_dir, leftover))
        self.data.clear()
        self.names.clear()
        return report

    def inode_paths(self):
        """Inode -> one path, for every entry under BACKING and STASH (a cut resolves inodes once)."""
        paths = {}
        for top in (self.root, self.stash_dir):
            paths[os.lstat(top).st_ino] = top
            for dirpath, dirnames, filenames in os.walk(top):
                for name in dirnames + filenames:
                    path = os.path.join(dirpath, name)
                    paths.setdefault(os.lstat(path).st_ino, path)
        return paths

    def torn_tail(self, undo):
        """With --torn-seed, how many bytes past the durable size the cut keeps (else none)."""
        if self.torn is None or undo.size <= undo.durable_size:
            return 0
        return self.torn.randint(0, undo.size - undo.durable_size)

    @staticmethod
    def roll_back_data(path, undo, kept):
        """Back to the durable bytes, then kept bytes of the unsynced tail; returns bytes dropped."""
        if not stat.S_ISREG(os.lstat(path).st_mode):
            return 0
        with open(path, "r+b", buffering=0) as f:
            size = undo.durable_size + kept
            dropped = max(0, os.fstat(f.fileno()).st_size - size)
            os.ftruncate(f.fileno(), size)
            for block, original in undo.saved.items():
                os.pwrite(f.fileno(), original, block * BLOCK_BYTES)
                dropped += len(original)
        return dropped

    def undo_name(self, undo):
        # Renames of directories move what is under them, so inodes are resolved again each time.
        paths = self.inode_paths()
        here = os.path.join(paths[undo.dir_ino], undo.name) if undo.dir_ino in paths else None
        if undo.kind == "create":
            if here is not None and os.path.lexists(here):
                if os.path.isdir(here) and not os.path.islink(here):
                    shutil.rmtree(here)
                else:
                    os.unlink(here)
        elif undo.kind == "remove":
            if here is not None and os.path.lexists(undo.stash):
                os.rename(undo.stash, here)
        elif undo.kind == "rename":
            back = paths.get(undo.from_dir_ino)
            if here is not None and back is not None and os.path.lexists(here):
                os.rename(here, os.path.join(back, undo.from_name))
            if undo.stash and here is not None and os.path.lexists(undo.stash):
                os.rename(undo.stash, here)
        else:
            raise AssertionError(undo.kind)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("backing")
    parser.add_argument("stash")
    parser.add_argument("mount")
    parser.add_argument("--report")
    parser.add_argument("--writeback-seconds", type=float)
    parser.add_argument("--power-off-file",
                        help="once this file exists, nothing more is written back (the cut's moment)")
    parser.add_argument("--torn-seed", type=int,
                        help="at a cut, keep a random prefix of each file's unsynced tail")
    parser.add_argument("--ignore-dir-fsync", action="store_true",
                        help="an experiment: directory fsyncs make nothing durable")
    args = parser.parse_args()
    for d in (args.backing, args.stash, args.mount):
        if not os.path.isdir(d):
            raise SystemExit(f"lossyfs: {d} is not a directory")
    if os.stat(args.backing).st_dev != os.stat(args.stash).st_dev:
        raise SystemExit("lossyfs: STASH must be on the same file system as BACKING (files move there)")
    if os.listdir(args.stash):
        raise SystemExit(f"lossyfs: STASH {args.stash} must be empty")
    fs = LossyFs(args.backing, args.stash, args.writeback_seconds, args.ignore_dir_fsync, args.torn_seed,
                 args.power_off_file)
    # hard_remove: an unlinked open file is unlinked, not renamed to .fuse_hidden* (which would
    # be a rename to undo); use_ino: the caller sees the backing inodes; big_writes: 128 KiB writes.
    FUSE(fs, args.mount, raw_fi=True, foreground=True, fsname="lossyfs", hard_remove=True,
         use_ino=True, big_writes=True)
    report = fs.power_cut()
    text = json.dumps(report, sort_keys=True)
    print(f"lossyfs: power cut: {text}", flush=True)
    if args.report:
        with open(args.report, "w") as f:
            f.write(text + "\n")


if __name__ == "__main__":
    main()
