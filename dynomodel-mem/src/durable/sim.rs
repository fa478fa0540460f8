//! A file system in memory that fails on purpose, for tests (as SQLite's test VFS and redb's fuzzing
//! backend): the real engine runs on it, and a test arms faults, then looks at what a crash would
//! leave.
//!
//! It models what matters to a write-ahead log:
//! - each file has what reads see (the page cache) and what is on disk (what `fsync` wrote);
//! - directory entries (creations, renames, removals) reach the disk on a directory fsync;
//! - a failed fsync behaves as Linux's does (the "fsyncgate" behaviour): the pages written since the
//!   last good fsync are marked clean without reaching the disk, so a later fsync "succeeds"
//!   without writing them;
//! - a disk of limited capacity: an append past it writes what fits, then fails with `ENOSPC`.
//!
//! [`Sim::after_kill`] is what a restarted process finds after `kill -9` (the page cache), and
//! [`Sim::after_power_cut`] what a machine finds after a power cut (the disk).

use std::collections::BTreeMap;
use std::fmt;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};

use super::storage::{Storage, StorageFile};
use super::OpenError;

/// An operation a fault can be armed on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Op {
    Append,
    Sync,
    Create,
    Rename,
    SyncDir,
    SetLen,
}

/// What an armed fault does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Fault {
    /// Fails with `ENOSPC`, writing nothing.
    NoSpace,
    /// Fails with `EIO` (for an fsync: the pages are dropped, as Linux does).
    Io,
    /// Writes this many bytes of the append, then fails with `ENOSPC`.
    Short(usize),
}

/// An armed fault: on the `skip + 1`-th matching operation on a path containing `path`, then
/// `times` times in all.
#[derive(Debug, Clone)]
struct Rule {
    op: Op,
    path: String,
    skip: usize,
    times: usize,
    fault: Fault,
}

#[derive(Debug, Default, Clone)]
struct Node {
    /// What reads see.
    cache: Vec<u8>,
    /// What is on disk.
    disk: Vec<u8>,
    /// Bytes from here to `cache`'s end were dropped by a failed fsync: never written by a later one.
    dropped: Option<(usize, usize)>,
}

#[derive(Debug, Default)]
struct Fs {
    nodes: Vec<Node>,
    /// Names as the process sees them.
    names: BTreeMap<PathBuf, usize>,
    /// Names as the disk has them.
    disk_names: BTreeMap<PathBuf, usize>,
    rules: Vec<Rule>,
    /// Bytes the disk holds at most (`None`: unlimited).
    capacity: Option<usize>,
    /// Operations done, by kind (for tests that count fsyncs).
    syncs: usize,
}

impl Fs {
    fn used(&self) -> usize {
        self.names
            .values()
            .map(|&n| self.nodes[n].cache.len())
            .sum()
    }

    /// The fault armed for `op` on `path`, consuming one firing.
    fn fault(&mut self, op: Op, path: &Path) -> Option<Fault> {
        let path = path.to_string_lossy();
        let rule = self
            .rules
            .iter_mut()
            .find(|r| r.op == op && r.times > 0 && path.contains(&r.path))?;
        if rule.skip > 0 {
            rule.skip -= 1;
            return None;
        }
        rule.times -= 1;
        Some(rule.fault)
    }

    fn node(&mut self, path: &Path) -> io::Result<&mut Node> {
        let n = *self
            .names
            .get(path)
            .ok_or_else(|| io::Error::new(io::ErrorKind::NotFound, path.display().to_string()))?;
        Ok(&mut self.nodes[n])
    }
}

fn no_space() -> io::Error {
    io::Error::from_raw_os_error(28)
}

fn eio() -> io::Error {
    io::Error::from_raw_os_error(5)
}

/// The simulated file system; clones share it.
#[derive(Clone, Default)]
pub(crate) struct Sim(Arc<Mutex<Fs>>);

impl fmt::Debug for Sim {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Sim")
    }
}

impl Sim {
    pub(crate) fn new() -> Sim {
        Sim::default()
    }

    fn fs(&self) -> std::sync::MutexGuard<'_, Fs> {
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The storage interface over this file system.
    pub(crate) fn storage(&self) -> Arc<dyn Storage> {
        Arc::new(self.clone())
    }

    /// Arms `fault` on the `skip + 1`-th `op` on a path containing `path`, for `times` operations.
    pub(crate) fn arm(&self, op: Op, path: &str, skip: usize, times: usize, fault: Fault) {
        self.fs().rules.push(Rule {
            op,
            path: path.to_owned(),
            skip,
            times,
            fault,
        });
    }

    /// Limits the disk to its current use plus `free` bytes (`None`: no limit).
    pub(crate) fn free_space(&self, free: Option<usize>) {
        let mut fs = self.fs();
        fs.capacity = free.map(|free| fs.used() + free);
    }

    /// Fsyncs done so far.
    pub(crate) fn syncs(&self) -> usize {
        self.fs().syncs
    }

    /// What a process restarted after `kill -9` finds: everything the kernel had.
    pub(crate) fn after_kill(&self) -> Sim {
        let fs = self.fs();
        let mut out = Fs::default();
        for (path, &n) in &fs.names {
            out.names.insert(path.clone(), out.nodes.len());
            out.disk_names.insert(path.clone(), out.nodes.len());
            let data = fs.nodes[n].cache.clone();
            out.nodes.push(Node {
                cache: data.clone(),
                disk: data,
                dropped: None,
            });
        }
        Sim(Arc::new(Mutex::new(out)))
    }

    /// What a machine finds after a power cut: what reached the disk.
    pub(crate) fn after_power_cut(&self) -> Sim {
        let fs = self.fs();
        let mut out = Fs::default();
        for (path, &n) in &fs.disk_names {
            out.names.insert(path.clone(), out.nodes.len());
            out.disk_names.insert(path.clone(), out.nodes.len());
            let data = fs.nodes[n].disk.clone();
            out.nodes.push(Node {
                cache: data.clone(),
                disk: data,
                dropped: None,
            });
        }
        Sim(Arc::new(Mutex::new(out)))
    }

    /// The bytes of `path` as reads see them.
    pub(crate) fn bytes(&self, path: &Path) -> Vec<u8> {
        self.fs()
            .node(path)
            .map(|n| n.cache.clone())
            .unwrap_or_default()
    }

    /// Replaces the bytes of `path` (as if on disk, too), creating it if needed.
    pub(crate) fn set_bytes(&self, path: &Path, bytes: &[u8]) {
        let mut fs = self.fs();
        let n = match fs.names.get(path) {
            Some(&n) => n,
            None => {
                fs.nodes.push(Node::default());
                let n = fs.nodes.len() - 1;
                fs.names.insert(path.to_path_buf(), n);
                fs.disk_names.insert(path.to_path_buf(), n);
                n
            }
        };
        fs.nodes[n].cache = bytes.to_vec();
        fs.nodes[n].disk = bytes.to_vec();
    }

    /// Removes `path` (as if on disk, too).
    pub(crate) fn delete(&self, path: &Path) {
        let mut fs = self.fs();
        fs.names.remove(path);
        fs.disk_names.remove(path);
    }

    /// The names under `dir` (the whole path of each), sorted.
    pub(crate) fn paths(&self, dir: &Path) -> Vec<PathBuf> {
        self.fs()
            .names
            .keys()
            .filter(|p| p.starts_with(dir))
            .cloned()
            .collect()
    }
}

impl Storage for Sim {
    fn lock(&self, _: &Path) -> Result<Box<dyn fmt::Debug + Send + Sync>, OpenError> {
        Ok(Box::new(()))
    }

    fn read(&self, path: &Path) -> io::Result<Vec<u8>> {
        Ok(self.fs().node(path)?.cache.clone())
    }

    fn names(&self, dir: &Path) -> io::Result<Vec<String>> {
        // Files, and the directories that files are under (directories exist through them).
        let mut names: Vec<String> = self
            .fs()
            .names
            .keys()
            .filter_map(|p| p.strip_prefix(dir).ok()?.components().next())
            .filter_map(|c| c.as_os_str().to_str().map(str::to_owned))
            .collect();
        names.dedup();
        Ok(names)
    }

    fn create(&self, path: &Path) -> io::Result<Arc<dyn StorageFile>> {
        let mut fs = self.fs();
        match fs.fault(Op::Create, path) {
            Some(Fault::NoSpace | Fault::Short(_)) => return Err(no_space()),
            Some(Fault::Io) => return Err(eio()),
            None => {}
        }
        fs.nodes.push(Node::default());
        let n = fs.nodes.len() - 1;
        fs.names.insert(path.to_path_buf(), n);
        drop(fs);
        Ok(Arc::new(SimFile {
            sim: self.clone(),
            node: n,
            path: path.to_path_buf(),
        }))
    }

    fn open(&self, path: &Path) -> io::Result<Arc<dyn StorageFile>> {
        let n =
            *self.fs().names.get(path).ok_or_else(|| {
                io::Error::new(io::ErrorKind::NotFound, path.display().to_string())
            })?;
        Ok(Arc::new(SimFile {
            sim: self.clone(),
            node: n,
            path: path.to_path_buf(),
        }))
    }

    fn rename(&self, from: &Path, to: &Path) -> io::Result<()> {
        let mut fs = self.fs();
        if let Some(fault) = fs.fault(Op::Rename, from) {
            return Err(if fault == Fault::Io {
                eio()
            } else {
                no_space()
            });
        }
        let n = fs
            .names
            .remove(from)
            .ok_or_else(|| io::Error::new(io::ErrorKind::NotFound, from.display().to_string()))?;
        fs.names.insert(to.to_path_buf(), n);
        Ok(())
    }

    fn remove(&self, path: &Path) -> io::Result<()> {
        self.fs()
            .names
            .remove(path)
            .map(|_| ())
            .ok_or_else(|| io::Error::new(io::ErrorKind::NotFound, path.display().to_string()))
    }

    fn create_dir(&self, _: &Path) -> io::Result<()> {
        Ok(())
    }

    fn sync_dir(&self, dir: &Path) -> io::Result<()> {
        let mut fs = self.fs();
        if fs.fault(Op::SyncDir, dir).is_some() {
            return Err(eio());
        }
        let in_dir = |p: &PathBuf| p.starts_with(dir);
        let names: Vec<(PathBuf, usize)> = fs
            .names
            .iter()
            .filter(|(p, _)| in_dir(p))
            .map(|(p, n)| (p.clone(), *n))
            .collect();
        fs.disk_names.retain(|p, _| !in_dir(p));
        fs.disk_names.extend(names);
        Ok(())
    }
}

/// A file of [`Sim`].
#[derive(Debug)]
struct SimFile {
    sim: Sim,
    node: usize,
    path: PathBuf,
}

impl SimFile {
    fn sync(&self) -> io::Result<()> {
        let mut fs = self.sim.fs();
        fs.syncs += 1;
        let fault = fs.fault(Op::Sync, &self.path);
        let node = &mut fs.nodes[self.node];
        if fault.is_some() {
            // Linux: the dirty pages are marked clean without reaching the disk.
            let from = node.disk.len().min(node.cache.len());
            node.dropped = Some((from, node.cache.len()));
            return Err(eio());
        }
        let mut disk = node.cache.clone();
        if let Some((from, to)) = node.dropped.take() {
            // Pages dropped by a failed fsync never reach the disk: it keeps what it had there.
            let old = node.disk.clone();
            for (i, b) in disk.iter_mut().enumerate().take(to).skip(from) {
                *b = old.get(i).copied().unwrap_or(0);
            }
        }
        node.disk = disk;
        Ok(())
    }
}

impl StorageFile for SimFile {
    fn append(&self, bytes: &[u8]) -> io::Result<()> {
        let mut fs = self.sim.fs();
        let fault = fs.fault(Op::Append, &self.path);
        let room = fs
            .capacity
            .map_or(usize::MAX, |c| c.saturating_sub(fs.used()));
        let node = &mut fs.nodes[self.node];
        match fault {
            Some(Fault::NoSpace) => Err(no_space()),
            Some(Fault::Io) => Err(eio()),
            Some(Fault::Short(n)) => {
                node.cache.extend_from_slice(&bytes[..n.min(bytes.len())]);
                Err(no_space())
            }
            None if bytes.len() > room => {
                node.cache.extend_from_slice(&bytes[..room]);
                Err(no_space())
            }
            None => {
                node.cache.extend_from_slice(bytes);
                Ok(())
            }
        }
    }

    fn sync_data(&self) -> io::Result<()> {
        self.sync()
    }

    fn sync_all(&self) -> io::Result<()> {
        self.sync()
    }

    fn set_len(&self, len: u64) -> io::Result<()> {
        let mut fs = self.sim.fs();
        if fs.fault(Op::SetLen, &self.path).is_some() {
            return Err(eio());
        }
        let len = usize::try_from(len).unwrap_or(usize::MAX);
        let node = &mut fs.nodes[self.node];
        node.cache.resize(len, 0);
        if let Some((from, to)) = node.dropped {
            node.dropped = (from < len).then_some((from, to.min(len)));
        }
        Ok(())
    }
}
