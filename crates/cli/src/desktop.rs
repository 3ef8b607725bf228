//! The app in the person's desktop: `recorder open [LINK]`, which also serves
//! the `recorder://` URL scheme, and `recorder desktop-integration`, which
//! registers that scheme with the desktop (an xdg `.desktop` entry on Linux).

use std::path::{Path, PathBuf};
use std::process::Command as Process;

use clap::{Args, Subcommand};
use recorder_client::Client;
use recorder_settings::Environment;

use crate::context::Failure;

/// The desktop entry's file name; `xdg-mime` knows the handler by it.
pub const ENTRY_NAME: &str = "recorder-url-handler.desktop";
const SCHEME_MIME: &str = "x-scheme-handler/recorder";

#[derive(Args)]
pub struct OpenArgs {
    /// What to open: a `recorder://` link (`recorder://pair` opens Settings →
    /// Extension with a fresh pairing code) or a path of the app such as
    /// `/settings/general`; default the meeting library
    pub link: Option<String>,
    /// Print the login link instead of opening a browser
    #[arg(long)]
    pub print: bool,
}

#[derive(Subcommand)]
pub enum IntegrationCommand {
    /// Register `recorder://` links with the desktop so they open this app
    Install,
    /// Remove the registration
    Uninstall,
}

/// The app page a `recorder://` link or a path stands for.
pub fn page_of(link: Option<&str>) -> Result<String, Failure> {
    recorder_client::links::page_of(link).map_err(Failure::usage)
}

/// `recorder open [LINK] [--print]`.
pub async fn open(client: &Client, args: OpenArgs) -> Result<(), Failure> {
    let page = page_of(args.link.as_deref())?;
    let link = client.login_link(Some(&page)).await?;
    if args.print {
        println!("{}", link.url);
        return Ok(());
    }
    match Process::new(opener()).arg(&link.url).status() {
        Ok(status) if status.success() => Ok(()),
        _ => Err(Failure::general(format!(
            "could not start a browser; open this link yourself within 60 s: {}",
            link.url
        ))),
    }
}

fn opener() -> &'static str {
    if cfg!(target_os = "macos") {
        "open"
    } else if cfg!(windows) {
        "explorer"
    } else {
        "xdg-open"
    }
}

/// `recorder desktop-integration install|uninstall`.
pub fn integration(command: IntegrationCommand) -> Result<(), Failure> {
    if !cfg!(target_os = "linux") {
        return Err(Failure::general(
            "desktop-integration registers recorder:// with xdg desktops (Linux); the macOS and Windows packages register it themselves",
        ));
    }
    let folder = applications_folder()?;
    let entry = folder.join(ENTRY_NAME);
    match command {
        IntegrationCommand::Install => install(&folder, &entry),
        IntegrationCommand::Uninstall => uninstall(&folder, &entry),
    }
}

fn install(folder: &Path, entry: &Path) -> Result<(), Failure> {
    let exe = std::env::current_exe()
        .map_err(|e| Failure::general(format!("cannot tell where recorder is installed: {e}")))?;
    // The desktop app beside this binary takes the links (one window, one
    // service); without it `recorder open` opens them in the browser.
    let desktop = exe.with_file_name("recorder-desktop");
    let text = match desktop.is_file() {
        true => desktop_app_entry(&desktop),
        false => desktop_entry(&exe),
    };
    std::fs::create_dir_all(folder)
        .and_then(|()| std::fs::write(entry, text))
        .map_err(|e| Failure::general(format!("cannot write {}: {e}", entry.display())))?;
    refresh_database(folder);
    match run_quietly("xdg-mime", &["default", ENTRY_NAME, SCHEME_MIME]) {
        true => println!("recorder:// links now open the app ({})", entry.display()),
        false => println!(
            "wrote {}; xdg-mime was not found, so make it the handler of {SCHEME_MIME} yourself",
            entry.display()
        ),
    }
    Ok(())
}

fn uninstall(folder: &Path, entry: &Path) -> Result<(), Failure> {
    match std::fs::remove_file(entry) {
        Ok(()) => {
            refresh_database(folder);
            println!("removed {}", entry.display());
            Ok(())
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            println!("recorder:// was not registered");
            Ok(())
        }
        Err(e) => Err(Failure::general(format!("cannot remove {}: {e}", entry.display()))),
    }
}

/// The entry: hidden from menus, it only handles `recorder://` links.
pub fn desktop_entry(exe: &Path) -> String {
    format!(
        "[Desktop Entry]\nType=Application\nName=Recorder\nComment=Open recorder:// links in the Recorder app\nExec={} open %u\nTerminal=false\nNoDisplay=true\nMimeType={SCHEME_MIME};\n",
        quote_exec(&exe.to_string_lossy())
    )
}

/// The entry when the desktop app is installed: links go to `recorder-desktop`.
pub fn desktop_app_entry(desktop: &Path) -> String {
    format!(
        "[Desktop Entry]\nType=Application\nName=Recorder\nComment=Open recorder:// links in the Recorder app\nExec={} %u\nTerminal=false\nNoDisplay=true\nMimeType={SCHEME_MIME};\n",
        quote_exec(&desktop.to_string_lossy())
    )
}

/// Quoting of the Desktop Entry Specification's `Exec` key (`%` is a field
/// code there, so a literal one is always doubled).
fn quote_exec(program: &str) -> String {
    let program = program.replace('%', "%%");
    if !program.chars().any(|c| " \t\n\"'\\><~|&;$*?#()`".contains(c)) {
        return program;
    }
    let escaped: String = program
        .chars()
        .flat_map(|c| match c {
            '"' | '`' | '$' | '\\' => vec!['\\', c],
            _ => vec![c],
        })
        .collect();
    format!("\"{escaped}\"")
}

/// `$XDG_DATA_HOME/applications`, else `~/.local/share/applications`.
fn applications_folder() -> Result<PathBuf, Failure> {
    let environment = Environment::from_process();
    let data_home = environment
        .xdg_data_home
        .or_else(|| environment.home.map(|home| home.join(".local/share")))
        .ok_or_else(|| Failure::general("neither XDG_DATA_HOME nor HOME is set"))?;
    Ok(data_home.join("applications"))
}

fn refresh_database(folder: &Path) {
    run_quietly("update-desktop-database", &[&folder.to_string_lossy()]);
}

/// Runs a desktop helper if it is installed; whether it succeeded.
fn run_quietly(program: &str, args: &[&str]) -> bool {
    Process::new(program).args(args).status().is_ok_and(|status| status.success())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exec_paths_with_spaces_are_quoted() {
        assert_eq!(quote_exec("/usr/bin/recorder"), "/usr/bin/recorder");
        assert_eq!(quote_exec("/opt/My Apps/recorder"), "\"/opt/My Apps/recorder\"");
        assert_eq!(quote_exec("/opt/100%/recorder"), "/opt/100%%/recorder");
        let entry = desktop_entry(Path::new("/usr/bin/recorder"));
        assert!(entry.contains("Exec=/usr/bin/recorder open %u\n"), "{entry}");
        assert!(entry.contains("MimeType=x-scheme-handler/recorder;\n"), "{entry}");
        let app = desktop_app_entry(Path::new("/opt/My Apps/recorder-desktop"));
        assert!(app.contains("Exec=\"/opt/My Apps/recorder-desktop\" %u\n"), "{app}");
    }
}
