/** "Pair two markets by id": a Polymarket market and a Kalshi market paired by hand, as confirmed. */
import type { PairOrientation, PairRelation } from "@epicenter/contracts";
import { Link2 } from "lucide-react";
import { type FormEvent, useState } from "react";
import { Button } from "../../ui/Button";
import { Field, inputClassName } from "../../ui/Field";
import styles from "./admin.module.css";
import { useAddPair } from "./api";
import venue from "./cross-venue.module.css";

export function PairForm() {
  const add = useAddPair();
  const [polymarketId, setPolymarketId] = useState("");
  const [kalshiTicker, setKalshiTicker] = useState("");
  const [relation, setRelation] = useState<PairRelation>("same_contract");
  const [orientation, setOrientation] = useState<PairOrientation>("same");
  const [paired, setPaired] = useState<string | null>(null);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setPaired(null);
    const request = {
      polymarket_id: polymarketId.trim(),
      kalshi_ticker: kalshiTicker.trim(),
      relation,
      orientation,
    };
    add.mutate(request, {
      onSuccess: () => {
        setPaired(
          `Paired Polymarket ${request.polymarket_id} with Kalshi ${request.kalshi_ticker}. It is listed under Confirmed.`,
        );
        setPolymarketId("");
        setKalshiTicker("");
      },
    });
  };

  return (
    <details className={venue.pairForm}>
      <summary>Pair two markets by id</summary>
      <form className={venue.pairFields} onSubmit={onSubmit}>
        <Field
          label="Polymarket id"
          required
          placeholder="558934"
          autoComplete="off"
          spellCheck={false}
          value={polymarketId}
          onChange={(event) => setPolymarketId(event.target.value)}
        />
        <Field
          label="Kalshi ticker"
          required
          placeholder="KXMENWORLDCUP-26-ES"
          autoComplete="off"
          spellCheck={false}
          value={kalshiTicker}
          onChange={(event) => setKalshiTicker(event.target.value)}
        />
        <label className={venue.selectField}>
          <span>Relation</span>
          <select
            className={inputClassName}
            value={relation}
            onChange={(event) => setRelation(event.target.value as PairRelation)}
          >
            <option value="same_contract">Same contract</option>
            <option value="related">Related</option>
          </select>
        </label>
        <label className={venue.selectField}>
          <span>Orientation</span>
          <select
            className={inputClassName}
            value={orientation}
            onChange={(event) => setOrientation(event.target.value as PairOrientation)}
          >
            <option value="same">Same</option>
            <option value="inverse">Inverse</option>
          </select>
        </label>
        <Button
          type="submit"
          variant="accent"
          icon={<Link2 size={15} />}
          isLoading={add.isPending}
          disabled={!polymarketId.trim() || !kalshiTicker.trim()}
        >
          Pair
        </Button>
        <p className={venue.hint}>
          Same orientation: Polymarket's first outcome (usually Yes) means Kalshi's Yes. Inverse: it means Kalshi's No.
          The pair is saved as confirmed.
        </p>
      </form>
      {add.isError ? (
        <p className={styles.error} role="alert">
          {add.error.message}
        </p>
      ) : null}
      {paired && !add.isError ? (
        <p className={styles.ok} role="status">
          {paired}
        </p>
      ) : null}
    </details>
  );
}
