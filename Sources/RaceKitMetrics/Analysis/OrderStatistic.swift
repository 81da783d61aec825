/// The k-th smallest of some numbers, as `sorted()[k]` gives it, without sorting
/// them all: a median or a 90th percentile of a run's speeds took a sort per
/// file (1.3% of a folder import).
public enum OrderStatistic {
    /// `values.sorted()[k]`, leaving `values` in some other order. Introselect:
    /// quickselect around a median of three, and a sort of what is left once the
    /// range stops halving (so no ordering of the input makes it quadratic).
    /// With a NaN among the values it sorts them all, as `sorted()` does (NaN
    /// has no order, and the answer must be the one the sort gives).
    public static func select(_ values: inout [Double], _ k: Int) -> Double {
        precondition(values.indices.contains(k), "k \(k) outside 0..<\(values.count)")
        if values.contains(where: \.isNaN) {
            values.sort()
            return values[k]
        }
        return values.withUnsafeMutableBufferPointer { v in
            var lo = 0, hi = v.count - 1
            // Twice the halvings a good pivot needs, then the sort takes over.
            var rounds = 2 * (Int.bitWidth - v.count.leadingZeroBitCount) + 4
            while lo < hi {
                if rounds == 0 {
                    var rest = UnsafeMutableBufferPointer(rebasing: v[lo...hi])
                    rest.sort()
                    break
                }
                rounds -= 1
                let mid = lo + (hi - lo) / 2
                if v[mid] < v[lo] { v.swapAt(mid, lo) }
                if v[hi] < v[lo] { v.swapAt(hi, lo) }
                if v[hi] < v[mid] { v.swapAt(hi, mid) }
                let pivot = v[mid]
                // Hoare's partition: afterwards lo...j hold values <= pivot,
                // i...hi values >= pivot, and anything between equals it.
                var i = lo, j = hi
                while i <= j {
                    while i <= hi, v[i] < pivot { i += 1 }
                    while j >= lo, pivot < v[j] { j -= 1 }
                    if i <= j {
                        v.swapAt(i, j)
                        i += 1
                        j -= 1
                    }
                }
                if k <= j {
                    hi = j
                } else if k >= i {
                    lo = i
                } else {
                    return v[k]
                }
            }
            return v[k]
        }
    }
}
