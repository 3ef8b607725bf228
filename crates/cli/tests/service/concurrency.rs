//! Many readers while meetings are changed and deleted: never a server error.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use recorder_test_support::{http, seed, Options, SeedMeeting, TestService};
use serde_json::json;

use crate::BIN;

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn fifty_readers_while_meetings_are_patched_and_deleted() {
    let mut ids = Vec::new();
    let service = TestService::start_with(BIN, Options::default(), |data| {
        let meetings: Vec<SeedMeeting> = (0..60)
            .map(|index| {
                let lines: Vec<String> = (0..40)
                    .map(|line| format!("line {line} about the budget and roadmap {index}"))
                    .collect();
                let lines: Vec<&str> = lines.iter().map(String::as_str).collect();
                SeedMeeting::ready(&format!("Meeting {index}"), 1_000 + index as i64, &lines)
            })
            .collect();
        ids = seed(data, &meetings);
    });
    let service = Arc::new(service);
    let ids = Arc::new(ids);
    let server_errors = Arc::new(AtomicUsize::new(0));
    let answered = Arc::new(AtomicUsize::new(0));

    let mut readers = Vec::new();
    for reader in 0..50 {
        let (service, ids, errors, answered) =
            (service.clone(), ids.clone(), server_errors.clone(), answered.clone());
        readers.push(tokio::spawn(async move {
            let client = http();
            for round in 0..20 {
                let id = &ids[(reader * 7 + round) % ids.len()];
                let path = match round % 4 {
                    0 => "/v1/meetings?limit=20".to_string(),
                    1 => format!("/v1/meetings/{id}"),
                    2 => "/v1/search?q=budget".to_string(),
                    _ => format!("/v1/meetings/{id}/transcript?format=md"),
                };
                let response = client
                    .get(service.url(&path))
                    .bearer_auth(&service.api_token)
                    .send()
                    .await
                    .expect("answer");
                let status = response.status().as_u16();
                let _ = response.bytes().await;
                assert!(status == 200 || status == 404, "{path}: {status}");
                if status >= 500 {
                    errors.fetch_add(1, Ordering::SeqCst);
                }
                answered.fetch_add(1, Ordering::SeqCst);
            }
        }));
    }
    let writer = {
        let (service, ids, errors) = (service.clone(), ids.clone(), server_errors.clone());
        tokio::spawn(async move {
            let client = http();
            for (index, id) in ids.iter().enumerate() {
                let url = service.url(&format!("/v1/meetings/{id}"));
                let response = if index % 2 == 0 {
                    client.delete(&url).bearer_auth(&service.api_token).send().await
                } else {
                    client
                        .patch(&url)
                        .bearer_auth(&service.api_token)
                        .json(&json!({"title": format!("Renamed {index}"), "starred": true}))
                        .send()
                        .await
                };
                let status = response.expect("answer").status().as_u16();
                assert!(status == 200 || status == 204, "{status}");
                if status >= 500 {
                    errors.fetch_add(1, Ordering::SeqCst);
                }
            }
        })
    };
    for reader in readers {
        reader.await.expect("reader finished without a failed assertion");
    }
    writer.await.expect("writer finished without a failed assertion");
    assert_eq!(server_errors.load(Ordering::SeqCst), 0);
    assert_eq!(answered.load(Ordering::SeqCst), 1000);
    let list = crate::get(&service, "/v1/meetings").await;
    assert_eq!(list.body["total"], 30, "every other meeting was deleted");
}
