//! Bitboards on small rectangular grids (bit index = y * width + x, at most 128 cells).

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Grid {
    pub width: u32,
    pub height: u32,
    pub full: u128,
    first_col: u128,
    not_first_col: u128,
    not_last_col: u128,
}

impl Grid {
    pub const fn new(width: u32, height: u32) -> Grid {
        assert!(width * height <= 128);
        let full = if width * height == 128 {
            u128::MAX
        } else {
            (1u128 << (width * height)) - 1
        };
        let mut first_col = 0u128;
        let mut last_col = 0u128;
        let mut y = 0;
        while y < height {
            first_col |= 1u128 << (y * width);
            last_col |= 1u128 << (y * width + width - 1);
            y += 1;
        }
        Grid {
            width,
            height,
            full,
            first_col,
            not_first_col: full & !first_col,
            not_last_col: full & !last_col,
        }
    }

    #[inline]
    pub const fn bit(&self, x: u32, y: u32) -> u128 {
        1u128 << (y * self.width + x)
    }

    /// Cells orthogonally adjacent to `b` (not including `b` itself unless adjacent).
    #[inline]
    pub fn neighbours(&self, b: u128) -> u128 {
        ((b << 1) & self.not_first_col)
            | ((b >> 1) & self.not_last_col)
            | ((b << self.width) & self.full)
            | (b >> self.width)
    }

    /// The 4-connected component of `within` that contains `seed` (which must lie in `within`).
    #[inline]
    pub fn component(&self, seed: u128, within: u128) -> u128 {
        let mut c = seed;
        loop {
            // Two steps per comparison: areas are made of 2×2 blocks, so growth comes in pairs.
            let once = (c | self.neighbours(c)) & within;
            let grown = (once | self.neighbours(once)) & within;
            if grown == c {
                return c;
            }
            c = grown;
        }
    }

    /// Columns `lo..=hi` across all rows (empty if `lo > hi`).
    #[inline]
    pub fn columns(&self, lo: i32, hi: i32) -> u128 {
        let lo = lo.max(0);
        let hi = hi.min(self.width as i32 - 1);
        if lo > hi {
            return 0;
        }
        // One row's bits times a 1 at the start of every row (no carries: the row is narrower
        // than a row stride).
        let row = ((1u128 << (hi - lo + 1)) - 1) << lo;
        row * self.first_col
    }

    /// Rows `lo..=hi` (empty if `lo > hi`).
    pub fn rows(&self, lo: i32, hi: i32) -> u128 {
        let lo = lo.max(0);
        let hi = hi.min(self.height as i32 - 1);
        if lo > hi {
            return 0;
        }
        let n = ((hi - lo + 1) as u32) * self.width;
        let block = if n == 128 {
            u128::MAX
        } else {
            (1u128 << n) - 1
        };
        block << (lo as u32 * self.width)
    }
}

/// Iterates the indices of set bits, lowest first.
#[inline]
pub fn bits(mut b: u128) -> impl Iterator<Item = u32> {
    std::iter::from_fn(move || {
        if b == 0 {
            None
        } else {
            let i = b.trailing_zeros();
            b &= b - 1;
            Some(i)
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn neighbours_do_not_wrap() {
        let g = Grid::new(9, 9);
        let corner = g.bit(8, 0);
        assert_eq!(g.neighbours(corner), g.bit(7, 0) | g.bit(8, 1));
        let left = g.bit(0, 4);
        assert_eq!(g.neighbours(left), g.bit(1, 4) | g.bit(0, 3) | g.bit(0, 5));
    }

    #[test]
    fn ranges() {
        let g = Grid::new(10, 10);
        assert_eq!(g.columns(0, 9), g.full);
        assert_eq!(g.rows(0, 9), g.full);
        assert_eq!((g.columns(2, 3) & g.rows(5, 5)).count_ones(), 2);
        assert_eq!(g.columns(4, 3), 0);
    }

    #[test]
    fn component_follows_orthogonal_links_only() {
        let g = Grid::new(10, 10);
        let diag = g.bit(0, 0) | g.bit(1, 1);
        assert_eq!(g.component(g.bit(0, 0), diag), g.bit(0, 0));
        let l = g.bit(0, 0) | g.bit(1, 0) | g.bit(1, 1);
        assert_eq!(g.component(g.bit(1, 1), l), l);
    }
}
