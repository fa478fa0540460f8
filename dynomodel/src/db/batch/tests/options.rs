//! The backoff schedule and the bounds of the options.

use std::time::Duration;

use crate::db::batch::options::BatchOptions;

#[test]
fn caps_double_from_the_base_up_to_the_maximum() {
    let options = BatchOptions::default()
        .base_delay(Duration::from_millis(50))
        .max_delay(Duration::from_millis(300));
    let caps: Vec<u128> = (1..=6)
        .map(|retry| options.delay_cap(retry).as_millis())
        .collect();
    assert_eq!(caps, [50, 100, 200, 300, 300, 300]);
    // No overflow however many retries.
    assert_eq!(options.delay_cap(u32::MAX), Duration::from_millis(300));
    let unbounded = BatchOptions::default().max_delay(Duration::MAX);
    assert!(unbounded.delay_cap(200) > Duration::from_secs(100_000_000));
}

#[test]
fn full_jitter_spreads_pauses_between_zero_and_the_cap() {
    let options = BatchOptions::default().base_delay(Duration::from_millis(100));
    let cap = options.delay_cap(3);
    let draws: Vec<Duration> = (0..2000).map(|_| options.delay(3)).collect();
    assert!(draws.iter().all(|d| *d <= cap));
    let mean = draws.iter().sum::<Duration>() / 2000;
    // Uniform on [0, 400 ms]: a mean of 200 ms, give or take a few.
    assert!(
        mean > Duration::from_millis(180) && mean < Duration::from_millis(220),
        "{mean:?}"
    );
    let low = draws.iter().filter(|d| **d < cap / 4).count();
    assert!(
        low > 400 && low < 600,
        "a quarter below a quarter of the cap: {low}"
    );
}

#[test]
fn attempts_and_concurrency_are_at_least_one() {
    let options = BatchOptions::default().max_attempts(0).concurrency(0);
    assert_eq!((options.max_attempts, options.concurrency), (1, 1));
    let defaults = BatchOptions::default();
    assert_eq!(
        (
            defaults.max_attempts,
            defaults.base_delay,
            defaults.max_delay,
            defaults.concurrency
        ),
        (10, Duration::from_millis(50), Duration::from_secs(5), 4)
    );
}
