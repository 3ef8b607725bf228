//! Man pages (clap_mangen) and shell completions (clap_complete) of a
//! command-line program, written from its clap definition: what the Debian
//! package installs for `recorder`, `recorder-gateway` and `recorder-desktop`
//! (each has a hidden `--write-docs DIR`; `recorder` a hidden `write-docs`).

use std::path::Path;

use clap_complete::Shell;

/// Writes `DIR/man/<name>.1` (and one page per subcommand) and
/// `DIR/completions/` for bash, zsh and fish.
pub fn write_docs(command: clap::Command, dir: &Path) -> std::io::Result<()> {
    let man = dir.join("man");
    let completions = dir.join("completions");
    std::fs::create_dir_all(&man)?;
    std::fs::create_dir_all(&completions)?;
    let name = command.get_name().to_string();
    clap_mangen::generate_to(command.clone(), &man)?;
    for shell in [Shell::Bash, Shell::Zsh, Shell::Fish] {
        clap_complete::generate_to(shell, &mut command.clone(), &name, &completions)?;
    }
    Ok(())
}
