//! Issue 49: a Swiss tournament and an Arena on two instances survive a `kill -9` of the
//! instance that runs them, mid-round (mid-game) and between rounds (between tables): the
//! other takes the lease over and goes on from what is stored; no round is ever paired
//! twice, no Arena table formed twice, nobody seated at two tables at once.
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
    resign_tables(
        http,
        bases,
        t["paired"][round]["tables"].as_array().unwrap(),
        cookies,
    )
    .await;
}

/// Ends the game of each of `tables` (as the tournament's view lists them) by a resignation
/// of its first seat, retried as [`resign_round`]'s.
async fn resign_tables(
    http: &reqwest::Client,
    bases: &[String],
    tables: &[Value],
    cookies: &std::collections::HashMap<String, String>,
) {
    for table in tables {
        let game = table["game"].as_str().unwrap();
        let who = table["players"][0]["id"].as_str().unwrap();
        let deadline = tokio::time::Instant::now() + Duration::from_secs(40);
        let mut last = String::new();
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
                    // Ended already (its result not yet read by the director): as wanted.
                    Err(e)
                        if ["already_resigned", "game_over"]
                            .iter()
                            .any(|code| e.to_string().contains(code)) =>
                    {
                        break 'resign;
                    }
                    Err(e) => last = e.to_string(),
                }
            }
            assert!(
                tokio::time::Instant::now() < deadline,
                "cannot resign {game}: {last}"
            );
            tokio::time::sleep(Duration::from_millis(300)).await;
        }
    }
}

/// A tournament `spec` created by an account on the first instance, joined by three guests
/// made on the two instances in turn, and started: its id and every player's cookie by user
/// id (the host's too).
async fn started(
    http: &reqwest::Client,
    bases: &[String],
    spec: serde_json::Value,
) -> (String, std::collections::HashMap<String, String>) {
    let host = account(http, &bases[0], "host").await;
    let created = post(http, format!("{}/api/tournaments", bases[0]), &host, spec)
        .await
        .unwrap();
    let id = created["id"].as_str().unwrap().to_string();
    let mut cookies = std::collections::HashMap::new();
    cookies.insert(user_id(http, &bases[0], &host).await, host.clone());
    for i in 0..3 {
        let g = guest(http, &bases[i % 2]).await.unwrap();
        post(
            http,
            format!("{}/api/tournaments/{id}/join", bases[i % 2]),
            &g,
            json!({}),
        )
        .await
        .unwrap();
        cookies.insert(user_id(http, &bases[0], &g).await, g);
    }
    post(
        http,
        format!("{}/api/tournaments/{id}/start", bases[0]),
        &host,
        json!({}),
    )
    .await
    .unwrap();
    (id, cookies)
}

#[tokio::test]
async fn a_swiss_goes_on_after_its_instance_is_killed_and_no_round_is_paired_twice() {
    let database = fresh_database("pyramidion_tourney_cluster_test").await;
    let (mut instances, mut bases) = start_all(&database, &["a", "b"], &[]);
    let http = reqwest::Client::new();
    let (id, cookies) = started(
        &http,
        &bases,
        json!({"name": "Cluster Swiss", "game": "pyramids", "format": "swiss", "seats": 2,
               "rounds": 3, "starts_in_s": 3600}),
    )
    .await;

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

/// An Arena's tables as its view lists them (the latest first).
fn arena_tables(t: &Value) -> Vec<Value> {
    t["paired"][0]["tables"]
        .as_array()
        .cloned()
        .unwrap_or_default()
}

/// Its tables still being played.
fn playing(t: &Value) -> Vec<Value> {
    arena_tables(t)
        .into_iter()
        .filter(|table| table["places"].is_null())
        .collect()
}

#[tokio::test]
async fn an_arena_goes_on_after_its_instance_is_killed_and_no_table_is_formed_twice() {
    let database = fresh_database("pyramidion_arena_cluster_test").await;
    let (mut instances, mut bases) = start_all(&database, &["a", "b"], &[]);
    let http = reqwest::Client::new();
    // A minute: long enough for two kills and their take-overs (an instance is dead 4 s after
    // its last heartbeat), short enough to wait for its end.
    let (id, cookies) = started(
        &http,
        &bases,
        json!({"name": "Cluster Arena", "game": "pyramids", "format": "arena", "seats": 2,
               "duration_min": 1, "starts_in_s": 3600}),
    )
    .await;

    // Mid-game: the four are seated at two tables; the director is killed before any ends.
    let t = until(&http, &bases, &id, |t| arena_tables(t).len() == 2).await;
    let first = director(&database, &id)
        .await
        .expect("a director holds the lease");
    let dead = instances.iter().position(|i| i.name == first).unwrap();
    instances[dead].kill();
    let alive: Vec<String> = vec![bases[1 - dead].clone()];
    resign_tables(&http, &alive, &playing(&t), &cookies).await;
    // The other instance records both results and seats the four again.
    let t = until(&http, &alive, &id, |t| {
        arena_tables(t).len() == 4 && playing(t).len() == 2
    })
    .await;
    assert_eq!(
        director(&database, &id).await.as_deref(),
        Some(instances[1 - dead].name.as_str())
    );

    // The dead instance comes back; then, between tables: the director is killed as soon as
    // the games of its tables end, its players free and not yet seated again.
    instances[dead] = Instance::start(&database, &first, &[]);
    bases[dead] = instances[dead].base.clone();
    let second = director(&database, &id).await.unwrap();
    let victim = instances.iter().position(|i| i.name == second).unwrap();
    resign_tables(&http, &bases, &playing(&t), &cookies).await;
    instances[victim].kill();
    let alive: Vec<String> = vec![bases[1 - victim].clone()];
    until(&http, &alive, &id, |t| arena_tables(t).len() >= 6).await;
    // Played on (every table ended at once) until its time is up and its last tables end.
    let t = loop {
        let t = until(&http, &alive, &id, |_| true).await;
        if t["status"] == "finished" {
            break t;
        }
        resign_tables(&http, &alive, &playing(&t), &cookies).await;
        tokio::time::sleep(Duration::from_millis(500)).await;
    };

    // Every table formed once: numbered 0, 1, 2… without a gap or a repeat, one game each,
    // and no other game made.
    let mut c = db(&database).await;
    let numbers: Vec<i64> = sqlx::query_scalar(
        "SELECT table_no FROM tournament_tables WHERE tournament_id = $1 ORDER BY table_no",
    )
    .bind(&id)
    .fetch_all(&mut c)
    .await
    .unwrap();
    // Counted from the database: the page shows an Arena's latest 100 tables only
    // (`ARENA_TABLES_SHOWN`), and a quick machine forms more than that here.
    let formed = numbers.len();
    assert!(formed >= 6, "{numbers:?}");
    assert_eq!(numbers, (0..formed as i64).collect::<Vec<_>>());
    let games: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM games")
        .fetch_one(&mut c)
        .await
        .unwrap();
    assert_eq!(
        games, formed as i64,
        "every game made is a table formed once"
    );
    // Nobody at two tables at once: each player's next table was made after their last game
    // ended. (Within a second: a step's time is read when it begins, and a game may end while
    // it reads the others; a player seated twice would sit at an unfinished table, which this
    // test ends only seconds later.) Over the tables the page shows (the latest 100).
    let mut spans: std::collections::HashMap<String, Vec<(i64, i64)>> = Default::default();
    for table in arena_tables(&t) {
        let game = table["game"].as_str().expect("each table has its game");
        let (made, ended): (i64, Option<i64>) =
            sqlx::query_as("SELECT created_at, finished_at FROM games WHERE id = $1")
                .bind(game)
                .fetch_one(&mut c)
                .await
                .unwrap();
        for p in table["players"].as_array().unwrap() {
            let who = p["id"].as_str().unwrap().to_string();
            spans
                .entry(who)
                .or_default()
                .push((made, ended.expect("every game ended")));
        }
    }
    for (who, mut spans) in spans {
        spans.sort();
        for w in spans.windows(2) {
            assert!(
                w[1].0 + 1000 >= w[0].1,
                "{who} seated again before their game ended: {spans:?}"
            );
        }
    }
    // Every game counted once in the standings: two players a table.
    let counted: u64 = t["standings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["games"].as_u64().unwrap())
        .sum();
    assert_eq!(counted, 2 * formed as u64, "{t}");
}
