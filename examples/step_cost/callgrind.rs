//! Callgrind's client requests (`valgrind/callgrind.h`): the magic instruction sequence that
//! does nothing outside valgrind. Only on x86_64; elsewhere the requests do nothing.
//! Shared by `examples/step_cost.rs` and `scripts/step_cost_092b5613.rs`.

/// `VG_USERREQ_TOOL_BASE('C', 'T')`.
const BASE: u64 = (b'C' as u64) << 24 | (b'T' as u64) << 16;
const START_INSTRUMENTATION: u64 = BASE + 4;
const STOP_INSTRUMENTATION: u64 = BASE + 5;

#[cfg(target_arch = "x86_64")]
fn request(code: u64) {
    let args = [code, 0u64, 0, 0, 0, 0];
    // SAFETY: the sequence rotates rdi by 128 bits in all (no change) and exchanges rbx
    // with itself; valgrind recognises it and reads `args`, which outlives the call.
    unsafe {
        std::arch::asm!(
            "rol rdi, 3", "rol rdi, 13", "rol rdi, 61", "rol rdi, 51", "xchg rbx, rbx",
            in("rax") args.as_ptr(),
            inout("rdx") 0u64 => _,
            options(nostack)
        );
    }
}
#[cfg(not(target_arch = "x86_64"))]
fn request(_code: u64) {}

pub fn start_instrumentation() {
    request(START_INSTRUMENTATION)
}
pub fn stop_instrumentation() {
    request(STOP_INSTRUMENTATION)
}
