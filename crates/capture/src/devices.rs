//! Capture through cpal: PipeWire's native host on Linux, Core Audio on
//! macOS and WASAPI on Windows. `mic` is the default input device; `sys` is
//! an input stream opened on the default output: PipeWire records what plays
//! into the default sink (`sink_default`), WASAPI opens it in loopback mode,
//! and Core Audio through a process tap (macOS 14.6+). The streams follow the
//! default device themselves; cpal reports the switch as `DeviceChanged`.
//! The callbacks only copy into the rings.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Sender};
use std::sync::Arc;
use std::time::Duration;

use cpal::traits::{DeviceTrait, HostTrait, StreamTrait};
use recorder_domain::Channel;

use crate::{new_feed, AudioSource, Capture, CaptureError, Feed, Format, Notice, Workers};

pub struct DeviceSource;

impl AudioSource for DeviceSource {
    fn name(&self) -> &'static str {
        if cfg!(target_os = "linux") {
            "pipewire"
        } else if cfg!(target_os = "macos") {
            "coreaudio"
        } else {
            "wasapi"
        }
    }

    /// cpal streams are not `Send` on every platform, so one thread opens,
    /// holds and finally drops both.
    fn start(&self) -> Result<Capture, CaptureError> {
        let (mic_tx, mic) = mpsc::channel();
        let (sys_tx, sys) = mpsc::channel();
        let (notice_tx, notices) = mpsc::channel();
        let (opened_tx, opened) = mpsc::channel();
        let stop = Arc::new(AtomicBool::new(false));
        let flag = stop.clone();
        let thread = std::thread::Builder::new()
            .name("capture".into())
            .spawn(move || hold_streams([mic_tx, sys_tx], notice_tx, opened_tx, &flag))
            .map_err(|e| CaptureError::Open { channel: "mic", message: e.to_string() })?;
        let holder = Workers { stop, threads: vec![thread] };
        match opened.recv_timeout(Duration::from_secs(10)) {
            Ok(Ok(())) => Ok(Capture { mic, sys, notices, guard: Box::new(holder) }),
            Ok(Err(error)) => Err(error),
            Err(_) => Err(CaptureError::Open {
                channel: "mic",
                message: "the audio system did not answer".into(),
            }),
        }
    }
}

fn hold_streams(
    feeds: [Sender<Feed>; 2],
    notices: Sender<Notice>,
    opened: Sender<Result<(), CaptureError>>,
    stop: &AtomicBool,
) {
    let [mic_feeds, sys_feeds] = feeds;
    let streams = open_channel(Channel::Mic, &mic_feeds, &notices)
        .and_then(|mic| Ok([mic, open_channel(Channel::Sys, &sys_feeds, &notices)?]));
    match streams {
        Ok(streams) => {
            let _ = opened.send(Ok(()));
            while !stop.load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(50));
            }
            drop(streams);
        }
        Err(error) => {
            let _ = opened.send(Err(error));
        }
    }
}

fn host() -> Result<cpal::Host, CaptureError> {
    #[cfg(target_os = "linux")]
    let host = cpal::host_from_id(cpal::HostId::PipeWire).map_err(|error| CaptureError::Open {
        channel: "mic",
        message: format!("PipeWire is not running ({error})"),
    });
    #[cfg(not(target_os = "linux"))]
    let host = Ok(cpal::default_host());
    host
}

fn device(channel: Channel) -> Result<cpal::Device, CaptureError> {
    let host = host()?;
    let missing = |what: &str| CaptureError::Open {
        channel: channel.as_str(),
        message: format!("no {what} was found"),
    };
    match channel {
        Channel::Mic => host.default_input_device().ok_or_else(|| missing("microphone")),
        #[cfg(target_os = "linux")]
        Channel::Sys => host
            .devices()
            .map_err(|e| CaptureError::Open { channel: "sys", message: e.to_string() })?
            .find(|d| d.id().is_ok_and(|id| id.id() == "sink_default"))
            .ok_or_else(|| missing("default output")),
        #[cfg(not(target_os = "linux"))]
        Channel::Sys => host.default_output_device().ok_or_else(|| missing("default output")),
    }
}

fn open_channel(
    channel: Channel,
    feeds: &Sender<Feed>,
    notices: &Sender<Notice>,
) -> Result<cpal::Stream, CaptureError> {
    let fail = |message: String| CaptureError::Open { channel: channel.as_str(), message };
    let device = device(channel)?;
    let supported = match channel {
        Channel::Mic => device.default_input_config(),
        Channel::Sys => device.default_output_config(),
    }
    .map_err(|e| fail(e.to_string()))?;
    let format = Format { rate: supported.sample_rate(), channels: supported.channels() };
    let config = cpal::StreamConfig {
        channels: format.channels,
        sample_rate: format.rate,
        buffer_size: cpal::BufferSize::Default,
    };
    let name = device.id().map(|id| id.id().to_string()).unwrap_or_else(|_| "default".into());
    let (mut ring, feed) = new_feed(format, 4.0, name);
    let notices = notices.clone();
    let on_data = move |data: &[f32], _: &cpal::InputCallbackInfo| {
        ring.write(data);
    };
    let on_error = move |error: cpal::Error| {
        let notice = match error.kind() {
            cpal::ErrorKind::DeviceChanged => {
                Notice::DeviceChanged { channel, device: "default".into() }
            }
            _ => Notice::Failed { channel, message: error.to_string() },
        };
        let _ = notices.send(notice);
    };
    let stream = device
        .build_input_stream::<f32, _, _>(config, on_data, on_error, None)
        .map_err(|e| fail(e.to_string()))?;
    stream.play().map_err(|e| fail(e.to_string()))?;
    if !crate::hand_over(feeds, feed) {
        return Err(fail("the recorder stopped listening".into()));
    }
    Ok(stream)
}
