import Foundation
import RaceKitTestSupport
import Testing

/// Every sport shown as what it is: rides in km/h and rpm, swims per 100 m,
/// totals per sport, names in the list (the "nothing silent" issue).
@Suite struct SportsCLITests {
    @Test func aMixedExportListsAndShowsEverySportAsItIs() throws {
        let cli = try CLI()
        try cli.write("run.gpx", trackGPX(seconds: 1800, speed: 3.0, start: "2026-03-10T07:00:00Z"))
        try cli.write("ride.gpx", trackGPX(seconds: 3600, speed: 8.0, type: "cycling", start: "2026-03-11T07:00:00Z"))
        try cli.write("swim.gpx", trackGPX(seconds: 1200, speed: 1.0, type: "swimming", start: "2026-03-12T07:00:00Z"))
        let imported = try cli.run(["import", "run.gpx", "ride.gpx", "swim.gpx"])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout.contains("3 files: 3 imported (3 runs)"), "\(imported.stdout)")
        let list = try cli.run(["runs", "list"])
        #expect(list.status == 0)
        // 8 m/s is 28.8 km/h; 1 m/s swimming is 1:40 per 100 m; 3 m/s running 5:33/km.
        #expect(list.stdout.contains("28.8 km/h"), "\(list.stdout)")
        #expect(list.stdout.contains("1:40/100m"), "\(list.stdout)")
        #expect(list.stdout.contains("5:33/km"), "\(list.stdout)")
        #expect(list.stdout.hasSuffix("1 run 5.4 km, 1 ride 28.8 km, 1 swim 1.2 km\n"), "\(list.stdout)")
        let miles = try cli.run(["runs", "list", "--unit", "mi"])
        #expect(miles.stdout.contains("17.9 mph"), "\(miles.stdout)")
        let csv = try cli.run(["runs", "list", "--format", "csv"])
        let ride = try #require(csv.stdout.split(separator: "\r\n").first { $0.contains(",cycling,") })
        let show = try cli.run(["runs", "show", String(ride.split(separator: ",")[0])])
        #expect(show.stdout.contains("Avg speed"), "\(show.stdout)")
        #expect(show.stdout.contains("28.8 km/h"))
        #expect(!show.stdout.contains("Avg pace"))
    }
}
