import LanesHTTP
/// `s3://BUCKET/KEY` as an `ArtifactDestination`.
public struct S3Destination: ArtifactDestination {
    public let bucket: String
    public let key: String
    public let uploader: S3Uploader

    public init(bucket: String, key: String, uploader: S3Uploader) {
        self.bucket = bucket
        self.key = key
        self.uploader = uploader
    }

    public func upload(file path: String, metadata: ArtifactMetadata, progress: any ProgressReporter) throws(UploadError) -> UploadReceipt {
        let objectKey = key.isEmpty || key.hasSuffix("/") ? key + FilePathName.last(path) : key
        let result = try uploader.upload(file: path, bucket: bucket, key: objectKey, progress: progress)
        return UploadReceipt(destination: "s3://\(bucket)/\(key)", location: "s3://\(bucket)/\(objectKey)", size: result.size, sha256: nil,
                             details: ["etag": result.etag, "parts": String(result.parts), "resumedParts": String(result.resumedParts),
                                       "endpoint": uploader.client.endpoint.base.origin])
    }
}
