export default function Cart() {
  return <main data-page="cart"><h1>Your cart</h1></main>;
}
