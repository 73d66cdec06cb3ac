//! Build script: generates the hold'em evaluator's lookup tables (see
//! `src/poker/tables_gen.rs`) into `$OUT_DIR/holdem_tables.rs`.

#[path = "src/poker/tables_gen.rs"]
mod tables_gen;

fn main() {
    println!("cargo:rerun-if-changed=src/poker/tables_gen.rs");
    println!("cargo:rerun-if-changed=build.rs");
    let out_dir = std::env::var("OUT_DIR").expect("cargo sets OUT_DIR");
    let tables = tables_gen::generate();
    let path = std::path::Path::new(&out_dir).join("holdem_tables.rs");
    std::fs::write(&path, tables_gen::to_rust(&tables)).expect("write the hold'em tables");
}
