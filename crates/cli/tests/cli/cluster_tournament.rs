//! Issue 49: a Swiss tournament on two instances survives a `kill -9` of the instance that
//! runs it, mid-round and between rounds: the other takes its lease over and goes on from
//! what is stored, and no round is ever paired twice.
use crate::cluster_support::*;
use serde_json::{Value, json};
use std::time::Duration;

async fn get(http: &reqwest::Client, url: &str) -> Option<Value> {
    let r = http.get(url).send().await.ok()?;
    r.status().is_success().then_some(())?;
    r.json().await.ok()
}

/// The tournament read from the first of `bases` that answers, once `done` says so.
async fn until(
    http: &reqwest::Client,
    bases: &[String],
    id: &str,
    done: impl Fn(&Value) -> bool,
) -> Value {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(40);
    loop {
        for base in bases {
            if let Some(t) = get(http, &format!("{base}/api/tournaments/{id}")).await
                && done(&t)
            {
                return t;
            }
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "tournament {id} never got there"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

/// The instance holding tournament `id`'s lease, by the database.
async fn director(database: &str, id: &str) -> Option<String> {
    owner(database, &format!("~tournament:{id}")).await
}

/// Ends every game of round `round` by a resignation of its first seat (retried on the
/// other instance while a dead owner's games are taken over).
async fn resign_round(
    http: &reqwest::Client,
    bases: &[String],
    t: &Value,
    round: usize,
    cookies: &std::collections::HashMap<String, String>,
) {
    for table in t["paired"][round]["tables"].as_array().unwrap() {
        let game = table["game"].as_str().unwrap();
        let who = table["players"][0]["id"].as_str().unwrap();
        let deadline = tokio::time::Instant::now() + Duration::from_secs(40);
        'resign: loop {
            for base in bases {
                let r = post(
                    http,
                    format!("{base}/api/games/{game}/resign"),
                    &cookies[who],
                    json!({}),
                )
                .await;
                match r {
                    Ok(_) => break 'resign,
                    Err(e) if e.to_string().contains("already_resigned") => break 'resign,
                    Err(_) => {}
                }
            }
            assert!(
                tokio::time::Instant::now() < deadline,
                "cannot resign {game}"
            );
            tokio::time::sleep(Duration::from_millis(300)).await;
        }
    }
}

#[tokio::test]
async fn a_swiss_goes_on_after_its_instance_is_killed_and_no_round_is_paired_twice() {
    let database = fresh_database("pyramidion_tourney_cluster_test").await;
    let (mut instances, mut bases) = start_all(&database, &["a", "b"], &[]);
    let http = reqwest::Client::new();
    let host = http
        .post(format!("{}/api/register", bases[0]))
        .json(&json!({"name": "host", "password": "correct horse"}))
        .send()
        .await
        .unwrap();
    let host = host.headers()["set-cookie"]
        .to_str()
        .unwrap()
        .split(';')
        .next()
        .unwrap()
        .to_string();
    let created = post(
        &http,
        format!("{}/api/tournaments", bases[0]),
        &host,
        json!({"name": "Cluster Swiss", "game": "pyramids", "format": "swiss", "seats": 2,
               "rounds": 3, "starts_in_s": 3600}),
    )
    .await
    .unwrap();
    let id = created["id"].as_str().unwrap().to_string();
    let mut cookies = std::collections::HashMap::new();
    cookies.insert(user_id(&http, &bases[0], &host).await, host.clone());
    for i in 0..3 {
        let g = guest(&http, &bases[i % 2]).await.unwrap();
        post(
            &http,
            format!("{}/api/tournaments/{id}/join", bases[i % 2]),
            &g,
            json!({}),
        )
        .await
        .unwrap();
        cookies.insert(user_id(&http, &bases[0], &g).await, g);
    }
    post(
        &http,
        format!("{}/api/tournaments/{id}/start", bases[0]),
        &host,
        json!({}),
    )
    .await
    .unwrap();

    // Mid-round: round 1 is paired; its director is killed before any game ends.
    let t = until(&http, &bases, &id, |t| {
        t["paired"].as_array().is_some_and(|r| r.len() == 1)
    })
    .await;
    let first = director(&database, &id)
        .await
        .expect("a director holds the lease");
    let dead = instances.iter().position(|i| i.name == first).unwrap();
    instances[dead].kill();
    let alive: Vec<String> = vec![bases[1 - dead].clone()];
    resign_round(&http, &alive, &t, 0, &cookies).await;
    let t = until(&http, &alive, &id, |t| {
        t["paired"].as_array().is_some_and(|r| r.len() == 2)
    })
    .await;
    assert_eq!(
        director(&database, &id).await.as_deref(),
        Some(instances[1 - dead].name.as_str())
    );

    // The dead instance comes back (a new process, same name); then, between rounds: the
    // director is killed as soon as the last game of round 2 ends.
    instances[dead] = Instance::start(&database, &first, &[]);
    bases[dead] = instances[dead].base.clone();
    let second = director(&database, &id).await.unwrap();
    let victim = instances.iter().position(|i| i.name == second).unwrap();
    resign_round(&http, &bases, &t, 1, &cookies).await;
    instances[victim].kill();
    let alive: Vec<String> = vec![bases[1 - victim].clone()];
    let t = until(&http, &alive, &id, |t| {
        t["paired"].as_array().is_some_and(|r| r.len() == 3)
    })
    .await;
    resign_round(&http, &alive, &t, 2, &cookies).await;
    let t = until(&http, &alive, &id, |t| t["status"] == "finished").await;

    // Three rounds, each paired once: one row each, two tables each, and no other game made.
    let mut c = db(&database).await;
    let rounds: Vec<i64> = sqlx::query_scalar(
        "SELECT round FROM tournament_rounds WHERE tournament_id = $1 ORDER BY round",
    )
    .bind(&id)
    .fetch_all(&mut c)
    .await
    .unwrap();
    assert_eq!(rounds, vec![0, 1, 2]);
    let games: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM games")
        .fetch_one(&mut c)
        .await
        .unwrap();
    let tables: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM tournament_tables")
        .fetch_one(&mut c)
        .await
        .unwrap();
    assert_eq!(
        (games, tables),
        (6, 6),
        "every game made is a table of the one pairing of its round"
    );
    let points: u64 = t["standings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["points"].as_u64().unwrap())
        .sum();
    assert_eq!(points, 3 * 2 * 24, "every table counted once");
    assert!(t["podium"].as_array().unwrap().len() >= 3, "{t}");
}
