export default function setup(): void {
  throw new Error("no emulator could start here");
}
