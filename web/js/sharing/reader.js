// Reading a player's answer with the host's camera: the browser's own BarcodeDetector where
// it has one (Safari, Chrome on Android and macOS), else a decoder given by decoder()
// (a vendored library, loaded only when needed), else nothing: the text is pasted.

const ANSWER = /^\d{1,4}\.1~/; // what an answer text starts with (host.js, table-sdp.js)

export class QrReader {
  /** decoder(): Promise of (imageData) -> text|null, or null when there is none. */
  constructor(decoder = async () => null) {
    this.decoder = decoder;
    this.stream = null;
    this.stopped = false;
  }

  async detector() {
    if (typeof BarcodeDetector === "undefined") return null;
    try {
      const formats = await BarcodeDetector.getSupportedFormats();
      if (!formats.includes("qr_code")) return null;
      const detector = new BarcodeDetector({ formats: ["qr_code"] });
      return async (video) => (await detector.detect(video))[0]?.rawValue ?? null;
    } catch {
      return null;
    }
  }

  /** A function reading one frame of the video, or null when this device cannot read codes. */
  async frameReader() {
    const native = await this.detector();
    if (native) return native;
    const decode = await this.decoder().catch(() => null);
    if (!decode) return null;
    const canvas = document.createElement("canvas");
    return async (video) => {
      if (!video.videoWidth) return null;
      canvas.width = video.videoWidth;
      canvas.height = video.videoHeight;
      const context = canvas.getContext("2d", { willReadFrequently: true });
      context.drawImage(video, 0, 0);
      return decode(context.getImageData(0, 0, canvas.width, canvas.height));
    };
  }

  async available() {
    return Boolean(navigator.mediaDevices?.getUserMedia) && Boolean(await this.frameReader());
  }

  /** Open the camera in video and resolve with the first answer text seen. */
  async read(video) {
    const readFrame = await this.frameReader();
    if (!readFrame) throw new Error("no reader");
    this.stopped = false;
    this.stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: "environment" }, audio: false });
    video.srcObject = this.stream;
    await video.play();
    try {
      while (!this.stopped) {
        const text = await readFrame(video).catch(() => null);
        if (text && ANSWER.test(text.trim())) return text.trim();
        await new Promise((resolve) => requestAnimationFrame(resolve));
      }
      throw new Error("stopped");
    } finally {
      this.stop();
      video.srcObject = null;
    }
  }

  stop() {
    this.stopped = true;
    for (const track of this.stream?.getTracks() ?? []) track.stop();
    this.stream = null;
  }
}
