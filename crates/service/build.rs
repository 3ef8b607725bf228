//! The web app (`ui/`) is built into the binary: without its built assets the
//! service would serve nothing to a person, so the build stops and says how to
//! make them.

fn main() {
    let dist = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../ui/dist");
    println!("cargo:rerun-if-changed={}", dist.join("index.html").display());
    if !dist.join("index.html").is_file() {
        panic!(
            "the web app is not built ({} has no index.html). Build it first: \
             `npm --prefix ui ci && npm --prefix ui run build` (scripts/setup.sh does this)",
            dist.display()
        );
    }
}
