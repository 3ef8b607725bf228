//! `recorder record start|stop|pause|resume|mute|unmute|keep|marker`: the
//! person's own buttons (through `ui_token`, so no plan or remote-start
//! gate), and markers.

use clap::Subcommand;
use recorder_api_types::{KeepReply, Marker, Meeting, MuteReply, PauseReply, StopReply};
use recorder_client::Client;
use serde_json::json;

use crate::context::{connect, Channel, Context, Failure};
use crate::output;

#[derive(Subcommand)]
pub enum RecordCommand {
    /// Start recording the microphone and the computer's sound
    Start {
        /// The meeting's title (default: "<app> meeting")
        #[arg(long)]
        title: Option<String>,
        /// The app the call is in (zoom, meet, teams…)
        #[arg(long)]
        app: Option<String>,
        #[arg(long)]
        json: bool,
    },
    /// Stop recording; the meeting is then transcribed and summarised
    Stop {
        #[arg(long)]
        json: bool,
    },
    /// Pause: nothing is recorded until `resume`
    Pause,
    /// Resume a paused recording
    Resume,
    /// Mute your microphone in the recording (silence is recorded in its
    /// place; the other side still is)
    Mute,
    /// Record your microphone again
    Unmute,
    /// Keep recording after the call ended or a long silence (calls off
    /// the countdown to stopping by itself)
    Keep,
    /// Bookmark this moment of the recording
    Marker {
        /// What the moment is (default: "Marker")
        label: Option<String>,
        #[arg(long)]
        json: bool,
    },
}

pub async fn run(context: &Context, command: RecordCommand) -> Result<(), Failure> {
    match command {
        RecordCommand::Start { title, app, json } => {
            let body = json!({ "title": title, "source_app": app });
            let person = connect(context, Channel::Person)?;
            let meeting: Meeting = person.post("/ui/recording/start", &strip_nulls(body)).await?;
            if json {
                return output::json(&meeting);
            }
            println!("recording \"{}\" (meeting {})", meeting.title, meeting.id);
            Ok(())
        }
        RecordCommand::Stop { json } => {
            let person = connect(context, Channel::Person)?;
            let reply: StopReply = person.post("/ui/recording/stop", &json!({})).await?;
            if json {
                return output::json(&reply);
            }
            println!("stopped; meeting {} is being transcribed", reply.meeting_id);
            Ok(())
        }
        RecordCommand::Pause => pause(&connect(context, Channel::Person)?, true).await,
        RecordCommand::Resume => pause(&connect(context, Channel::Person)?, false).await,
        RecordCommand::Mute => mute(&connect(context, Channel::Person)?, true).await,
        RecordCommand::Unmute => mute(&connect(context, Channel::Person)?, false).await,
        RecordCommand::Keep => {
            let person = connect(context, Channel::Person)?;
            let reply: KeepReply = person.post("/ui/recording/keep", &json!({})).await?;
            println!("meeting {}: recording until you stop it", reply.meeting_id);
            Ok(())
        }
        RecordCommand::Marker { label, json } => {
            let body = strip_nulls(json!({ "label": label }));
            let api = connect(context, Channel::Api)?;
            let marker: Marker = api.post("/v1/recording/marker", &body).await?;
            if json {
                return output::json(&marker);
            }
            println!("marker \"{}\" at {}", marker.label, output::clock(marker.at_ms));
            Ok(())
        }
    }
}

async fn pause(client: &Client, paused: bool) -> Result<(), Failure> {
    let reply: PauseReply =
        client.post("/ui/recording/pause", &json!({ "paused": paused })).await?;
    let state = if reply.paused { "paused" } else { "recording again" };
    println!("meeting {}: {state}", reply.meeting_id);
    Ok(())
}

async fn mute(client: &Client, muted: bool) -> Result<(), Failure> {
    let reply: MuteReply = client.post("/ui/recording/mute", &json!({ "muted": muted })).await?;
    let state = if reply.muted { "microphone muted" } else { "microphone on" };
    println!("meeting {}: {state}", reply.meeting_id);
    Ok(())
}

fn strip_nulls(mut value: serde_json::Value) -> serde_json::Value {
    if let Some(object) = value.as_object_mut() {
        object.retain(|_, v| !v.is_null());
    }
    value
}
