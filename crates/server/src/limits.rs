//! Token-bucket rate limits, per connection and per client IP.
use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::Mutex;
use std::time::Instant;

#[derive(Clone, Copy, Debug)]
pub struct Rate {
    pub per_second: f64,
    pub burst: f64,
}

#[derive(Debug)]
pub struct Bucket {
    rate: Rate,
    tokens: f64,
    last: Instant,
}

impl Bucket {
    pub fn new(rate: Rate) -> Self {
        Bucket {
            rate,
            tokens: rate.burst,
            last: Instant::now(),
        }
    }

    /// Takes one token if there is one.
    pub fn allow(&mut self) -> bool {
        let now = Instant::now();
        let refill = now.duration_since(self.last).as_secs_f64() * self.rate.per_second;
        self.tokens = (self.tokens + refill).min(self.rate.burst);
        self.last = now;
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }
}

/// One bucket per IP; old buckets are dropped when the map grows.
pub struct PerIp {
    rate: Rate,
    buckets: Mutex<HashMap<IpAddr, Bucket>>,
}

impl PerIp {
    pub fn new(rate: Rate) -> Self {
        PerIp {
            rate,
            buckets: Mutex::new(HashMap::new()),
        }
    }

    pub fn allow(&self, ip: IpAddr) -> bool {
        let mut buckets = self.buckets.lock().unwrap_or_else(|e| e.into_inner());
        if buckets.len() > 100_000 {
            let full = self.rate.burst;
            buckets.retain(|_, b| b.tokens < full);
        }
        buckets
            .entry(ip)
            .or_insert_with(|| Bucket::new(self.rate))
            .allow()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn burst_then_refuse() {
        let mut b = Bucket::new(Rate {
            per_second: 0.0,
            burst: 3.0,
        });
        assert!(b.allow() && b.allow() && b.allow());
        assert!(!b.allow());
    }
}
