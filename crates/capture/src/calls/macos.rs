//! The call watcher on macOS (14.2 and later): Core Audio's process objects,
//! the programs that use audio, each with its pid, bundle id and whether it
//! is taking input right now. Older macOS versions have no such list; the
//! watcher then reports nothing (and says so once).
#![allow(unsafe_code)]

use std::ffi::{c_char, c_void, CStr};

use super::CaptureStream;

#[repr(C)]
struct PropertyAddress {
    selector: u32,
    scope: u32,
    element: u32,
}

const SYSTEM_OBJECT: u32 = 1;
const SCOPE_GLOBAL: u32 = u32::from_be_bytes(*b"glob");
const ELEMENT_MAIN: u32 = 0;
const PROCESS_OBJECT_LIST: u32 = u32::from_be_bytes(*b"prs#");
const PROCESS_PID: u32 = u32::from_be_bytes(*b"ppid");
const PROCESS_BUNDLE_ID: u32 = u32::from_be_bytes(*b"pbid");
const PROCESS_IS_RUNNING_INPUT: u32 = u32::from_be_bytes(*b"piri");
const UTF8: u32 = 0x0800_0100;

#[link(name = "CoreAudio", kind = "framework")]
extern "C" {
    fn AudioObjectGetPropertyDataSize(
        object: u32,
        address: *const PropertyAddress,
        qualifier_size: u32,
        qualifier: *const c_void,
        size: *mut u32,
    ) -> i32;
    fn AudioObjectGetPropertyData(
        object: u32,
        address: *const PropertyAddress,
        qualifier_size: u32,
        qualifier: *const c_void,
        size: *mut u32,
        data: *mut c_void,
    ) -> i32;
}

#[link(name = "CoreFoundation", kind = "framework")]
extern "C" {
    fn CFStringGetCString(
        string: *const c_void,
        buffer: *mut c_char,
        size: isize,
        encoding: u32,
    ) -> u8;
    fn CFRelease(object: *const c_void);
}

extern "C" {
    fn proc_pidpath(pid: i32, buffer: *mut c_void, size: u32) -> i32;
}

fn address(selector: u32) -> PropertyAddress {
    PropertyAddress { selector, scope: SCOPE_GLOBAL, element: ELEMENT_MAIN }
}

/// The programs taking microphone input now.
pub fn capturing() -> Result<Vec<CaptureStream>, String> {
    let processes = process_objects()?;
    Ok(processes.into_iter().filter(|&object| running_input(object)).map(stream_of).collect())
}

fn process_objects() -> Result<Vec<u32>, String> {
    let list = address(PROCESS_OBJECT_LIST);
    let mut size = 0u32;
    // SAFETY: a valid address and an out-pointer to a u32.
    let status = unsafe {
        AudioObjectGetPropertyDataSize(SYSTEM_OBJECT, &list, 0, std::ptr::null(), &mut size)
    };
    if status != 0 {
        return Err(format!("Core Audio has no process list (status {status}; macOS 14.2+)"));
    }
    let mut objects = vec![0u32; size as usize / std::mem::size_of::<u32>()];
    let mut filled = (objects.len() * std::mem::size_of::<u32>()) as u32;
    // SAFETY: `objects` holds `filled` bytes.
    let status = unsafe {
        AudioObjectGetPropertyData(
            SYSTEM_OBJECT,
            &list,
            0,
            std::ptr::null(),
            &mut filled,
            objects.as_mut_ptr().cast(),
        )
    };
    if status != 0 {
        return Err(format!("cannot read Core Audio's process list (status {status})"));
    }
    objects.truncate(filled as usize / std::mem::size_of::<u32>());
    Ok(objects)
}

/// A fixed-size property of a process object.
fn property<T: Default>(object: u32, selector: u32) -> Option<T> {
    let mut value = T::default();
    let mut size = std::mem::size_of::<T>() as u32;
    // SAFETY: `value` holds `size` bytes.
    let status = unsafe {
        AudioObjectGetPropertyData(
            object,
            &address(selector),
            0,
            std::ptr::null(),
            &mut size,
            (&mut value as *mut T).cast(),
        )
    };
    (status == 0).then_some(value)
}

fn running_input(object: u32) -> bool {
    property::<u32>(object, PROCESS_IS_RUNNING_INPUT).is_some_and(|running| running != 0)
}

fn stream_of(object: u32) -> CaptureStream {
    let pid = property::<i32>(object, PROCESS_PID).filter(|pid| *pid > 0);
    CaptureStream {
        id: u64::from(object),
        binary: pid.and_then(program_path),
        name: bundle_id(object),
        pid: pid.and_then(|pid| u32::try_from(pid).ok()),
        title: None,
    }
}

fn bundle_id(object: u32) -> Option<String> {
    let string = property::<usize>(object, PROCESS_BUNDLE_ID).filter(|p| *p != 0)?;
    let mut buffer = [0 as c_char; 512];
    // SAFETY: a CFString Core Audio handed over (we release it), a buffer of its size.
    let text = unsafe {
        let ok = CFStringGetCString(
            string as *const c_void,
            buffer.as_mut_ptr(),
            buffer.len() as isize,
            UTF8,
        );
        CFRelease(string as *const c_void);
        (ok != 0).then(|| CStr::from_ptr(buffer.as_ptr()).to_string_lossy().into_owned())
    };
    text.filter(|id| !id.is_empty())
}

fn program_path(pid: i32) -> Option<String> {
    let mut buffer = [0u8; 4096];
    // SAFETY: a buffer of the given size.
    let length = unsafe { proc_pidpath(pid, buffer.as_mut_ptr().cast(), buffer.len() as u32) };
    let length = usize::try_from(length).ok().filter(|n| *n > 0)?;
    Some(String::from_utf8_lossy(&buffer[..length]).into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn selectors_are_core_audios_four_character_codes() {
        assert_eq!(PROCESS_OBJECT_LIST, 0x7072_7323);
        assert_eq!(PROCESS_IS_RUNNING_INPUT, 0x7069_7269);
        assert_eq!(SCOPE_GLOBAL, 0x676c_6f62);
    }
}
