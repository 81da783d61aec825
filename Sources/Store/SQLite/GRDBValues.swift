import Foundation
import GRDB
import RaceKitStore

// GRDB's rows and values as the repositories written once see them
// (`SQLStore`, `GRDBConnection`). Only the SQLite store uses these.

/// A GRDB row as the declared columns read it.
struct GRDBStoreRow: StoreRow {
    let row: Row
    func value(_ i: Int, _ type: ColumnType) -> StoreValue {
        let v: DatabaseValue = row[i]
        switch v.storage {
        case .null: return .null
        case .int64(let n): return type == .boolean ? .boolean(n != 0) : .integer(Int(n))
        case .double(let d): return .real(d)
        case .string(let s): return .text(s)
        case .blob(let b): return .blob([UInt8](b))
        }
    }
}

extension StoreValue {
    /// The value GRDB binds.
    var databaseValue: DatabaseValue {
        switch self {
        case .null: return .null
        case .text(let s): return s.databaseValue
        case .real(let d): return d.databaseValue
        case .integer(let i): return i.databaseValue
        case .boolean(let b): return b.databaseValue
        case .blob(let b): return Data(b).databaseValue
        }
    }
}
