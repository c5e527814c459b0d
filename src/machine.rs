//! Facts about the machine that figures are taken on, recorded beside them (`meta.json`, the
//! benches' ratio lines): the same code runs at different speeds on parts that share a name.

/// The CPU's model name with its family and model numbers, which tell apart parts that share a
/// name (a "Xeon Processor" runs the same code 2.5x slower on one machine than on another).
pub fn cpu_model() -> String {
    let info = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let field = |key: &str| {
        info.lines()
            .find(|l| l.split(':').next().map(str::trim) == Some(key))
            .and_then(|l| l.split_once(':'))
            .map(|(_, v)| v.trim().to_string())
    };
    match (field("model name"), field("cpu family"), field("model")) {
        (Some(name), Some(family), Some(model)) => {
            format!("{name} (family {family}, model {model})")
        }
        (Some(name), ..) => name,
        _ => std::env::consts::ARCH.to_string(),
    }
}
