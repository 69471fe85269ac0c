// The reference CPU engine for model_bench: onnxruntime-node (npm, a test-only tool; install
// with scripts/install-ort.sh) runs an ONNX model on one thread and prints the mean time of
// `reps` runs after a warm-up, and the first logit, as JSON.
//   node ort_reference.js MODEL.onnx INPUT.bin REPS
// The model's only input is "input", FLOAT [1, 3, 224, 224]; the output read is "logits".
const ort = require('onnxruntime-node');
const fs = require('fs');
(async () => {
  const [model, input, reps] = [process.argv[2], process.argv[3], parseInt(process.argv[4] || '10')];
  const opts = {intraOpNumThreads: 1, interOpNumThreads: 1};
  const session = await ort.InferenceSession.create(model, opts);
  const buf = fs.readFileSync(input);
  const x = new Float32Array(buf.buffer, buf.byteOffset, buf.length / 4);
  const feeds = {input: new ort.Tensor('float32', x, [1, 3, 224, 224])};
  await session.run(feeds);
  const t0 = process.hrtime.bigint();
  let out;
  for (let i = 0; i < reps; ++i) out = await session.run(feeds);
  const ms = Number(process.hrtime.bigint() - t0) / 1e6 / reps;
  console.log(JSON.stringify({ms, logits0: out.logits.data[0]}));
})();
