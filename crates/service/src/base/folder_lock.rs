//! One service per data folder. `service.lock` in the folder is held with an
//! OS file lock for the service's whole life (the kernel lets go when the
//! process ends, even by SIGKILL), and names the service's port, so a second
//! `recorder serve` or desktop app on the same folder, whatever its port, is
//! told where the first one is instead of opening the same database and audio.

use std::fs::{File, OpenOptions, TryLockError};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::PathBuf;

use recorder_settings::DataDir;

/// Another service holds the folder.
#[derive(Debug, thiserror::Error)]
#[error("the data folder {} is in use by another Recorder service{}; stop it first or use another --data-dir", folder.display(), port.map(|port| format!(" (listening on 127.0.0.1:{port})")).unwrap_or_default())]
pub struct FolderInUse {
    pub folder: PathBuf,
    /// The other service's port, when it has written it yet.
    pub port: Option<u16>,
}

/// The held lock; released when dropped.
#[derive(Debug)]
pub struct FolderLock {
    file: File,
}

impl FolderLock {
    /// Takes the folder's lock, or says who has it.
    pub fn acquire(data_dir: &DataDir) -> anyhow::Result<FolderLock> {
        let path = data_dir.service_lock();
        let mut file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&path)
            .map_err(|error| anyhow::anyhow!("cannot open {}: {error}", path.display()))?;
        match file.try_lock() {
            Ok(()) => Ok(FolderLock { file }),
            Err(TryLockError::WouldBlock) => {
                let port = read_port(&mut file);
                Err(FolderInUse { folder: data_dir.root().to_path_buf(), port }.into())
            }
            Err(TryLockError::Error(error)) => {
                Err(anyhow::anyhow!("cannot lock {}: {error}", path.display()))
            }
        }
    }

    /// Writes the port the service listens on, for whoever finds the folder taken.
    pub fn record_port(&mut self, port: u16) -> std::io::Result<()> {
        self.file.set_len(0)?;
        self.file.seek(SeekFrom::Start(0))?;
        self.file.write_all(format!("{port}\n").as_bytes())?;
        self.file.sync_data()
    }
}

fn read_port(file: &mut File) -> Option<u16> {
    let mut text = String::new();
    file.read_to_string(&mut text).ok()?;
    text.trim().parse().ok().filter(|port| *port != 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_holder_is_refused_and_told_the_port_until_the_first_lets_go() {
        let temp = tempfile::tempdir().expect("temp");
        let data_dir = DataDir::at(temp.path());
        let mut first = FolderLock::acquire(&data_dir).expect("first");
        first.record_port(47999).expect("port");
        let refused = FolderLock::acquire(&data_dir).expect_err("taken");
        let in_use = refused.downcast_ref::<FolderInUse>().expect("FolderInUse");
        assert_eq!(in_use.port, Some(47999));
        assert!(refused.to_string().contains("127.0.0.1:47999"), "{refused}");
        drop(first);
        FolderLock::acquire(&data_dir).expect("free again");
    }
}
