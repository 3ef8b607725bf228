//! The call watcher on Windows: the audio sessions of every active capture
//! endpoint (WASAPI's session manager), each with the process that owns it;
//! a session that is active is a program taking microphone input now.
#![allow(unsafe_code)]

use windows::core::{Interface, PWSTR};
use windows::Win32::Foundation::CloseHandle;
use windows::Win32::Media::Audio::{
    eCapture, AudioSessionStateActive, IAudioSessionControl2, IAudioSessionManager2, IMMDevice,
    IMMDeviceEnumerator, MMDeviceEnumerator, DEVICE_STATE_ACTIVE,
};
use windows::Win32::System::Com::{
    CoCreateInstance, CoInitializeEx, CLSCTX_ALL, COINIT_MULTITHREADED,
};
use windows::Win32::System::Threading::{
    OpenProcess, QueryFullProcessImageNameW, PROCESS_NAME_WIN32, PROCESS_QUERY_LIMITED_INFORMATION,
};

use super::CaptureStream;

/// The programs taking microphone input now.
pub fn capturing() -> Result<Vec<CaptureStream>, String> {
    // SAFETY: COM calls on this thread after initialising it (a second
    // initialisation of the same kind is harmless).
    unsafe {
        let _ = CoInitializeEx(None, COINIT_MULTITHREADED);
        let devices: IMMDeviceEnumerator =
            CoCreateInstance(&MMDeviceEnumerator, None, CLSCTX_ALL).map_err(|e| e.to_string())?;
        let endpoints =
            devices.EnumAudioEndpoints(eCapture, DEVICE_STATE_ACTIVE).map_err(|e| e.to_string())?;
        let mut streams = Vec::new();
        for index in 0..endpoints.GetCount().map_err(|e| e.to_string())? {
            if let Ok(device) = endpoints.Item(index) {
                streams.extend(active_sessions(&device, index));
            }
        }
        Ok(streams)
    }
}

/// The active sessions of one capture endpoint, one per process.
unsafe fn active_sessions(device: &IMMDevice, endpoint: u32) -> Vec<CaptureStream> {
    let Ok(manager) = device.Activate::<IAudioSessionManager2>(CLSCTX_ALL, None) else {
        return Vec::new();
    };
    let Ok(sessions) = manager.GetSessionEnumerator() else { return Vec::new() };
    let count = sessions.GetCount().unwrap_or(0);
    let mut streams: Vec<CaptureStream> = Vec::new();
    for index in 0..count {
        let Ok(control) = sessions.GetSession(index) else { continue };
        let Ok(control) = control.cast::<IAudioSessionControl2>() else { continue };
        if control.GetState().ok() != Some(AudioSessionStateActive) {
            continue;
        }
        let Ok(pid) = control.GetProcessId() else { continue };
        if pid == 0 || streams.iter().any(|stream| stream.pid == Some(pid)) {
            continue;
        }
        streams.push(CaptureStream {
            id: session_id(pid, endpoint),
            binary: program_path(pid),
            name: None,
            pid: Some(pid),
            title: None,
        });
    }
    streams
}

/// A session's id while it lives: its process on its endpoint.
fn session_id(pid: u32, endpoint: u32) -> u64 {
    (u64::from(pid) << 16) | u64::from(endpoint & 0xffff)
}

unsafe fn program_path(pid: u32) -> Option<String> {
    let process = OpenProcess(PROCESS_QUERY_LIMITED_INFORMATION, false, pid).ok()?;
    let mut buffer = [0u16; 1024];
    let mut size = buffer.len() as u32;
    let named = QueryFullProcessImageNameW(
        process,
        PROCESS_NAME_WIN32,
        PWSTR(buffer.as_mut_ptr()),
        &mut size,
    );
    let _ = CloseHandle(process);
    named.ok()?;
    Some(String::from_utf16_lossy(&buffer[..size as usize]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_process_on_two_endpoints_has_two_ids() {
        assert_ne!(session_id(4242, 0), session_id(4242, 1));
        assert_ne!(session_id(4242, 0), session_id(4243, 0));
    }
}
