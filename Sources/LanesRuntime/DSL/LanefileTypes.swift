import LanesBuild
import LanesGit
import LanesMatch
import LanesUpload

// A Lanefile imports only `Lanes`. The types steps take and return that live in the libraries
// below it are named here too, so a Lanefile can write them (`let options: ExportOptions = [...]`,
// `let tag: GitTag? = ...`): every type `lanes actions --json` names is usable in a Lanefile.
public typealias ExportOptions = LanesBuild.ExportOptions
public typealias TestRunResult = LanesBuild.TestRunResult
public typealias IPAInspection = LanesBuild.IPAInspection
public typealias PackedArtifact = LanesBuild.PackedArtifact
public typealias ArtifactManifest = LanesBuild.ArtifactManifest
public typealias GitTag = LanesGit.GitTag
public typealias MergeFilter = LanesGit.MergeFilter
public typealias ResetResult = LanesGit.ResetResult
public typealias UploadReceipt = LanesUpload.UploadReceipt
public typealias MatchType = LanesMatch.MatchType
public typealias MatchPlatform = LanesMatch.MatchPlatform
